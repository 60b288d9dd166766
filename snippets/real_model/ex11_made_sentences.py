from snippets.real_model.ex02_load import model, tokenizer
from snippets.real_model.ex04_find_heads import best, pattern_scores, patterns

# isort: split
# --8<-- [start:page]
import random
import re

import torch

WORDS = {
    "adj": "old small quiet bright heavy young busy cold narrow".split(),
    "person": "farmer teacher child driver painter sailor doctor".split(),
    "thing": "bridge letter garden window basket ladder table coat".split(),
    "did": "carried painted found fixed watched sold moved cleaned".split(),
    "place": "station market river school harbour kitchen village".split(),
}
TEMPLATES = [  # the words land in different places in each
    "The {adj} {person} {did} the {thing}.",
    "The {person} {did} the {adj} {thing} near the {place}.",
    "Near the {place}, a {adj} {person} {did} a {thing}.",
    "A {person} from the {adj} {place} {did} the {thing} yesterday.",
    "Yesterday the {person} {did} a {thing} and a {adj} {thing}.",
    "Why was the {thing} by the {place} so {adj}?",
    "The {thing} that the {person} {did} was {adj}.",
    "At the {place}, the {person} and the {adj} {person} {did} a {thing}.",
]


def fill(template, words, rng):
    """Each {kind} in the template becomes a word of that kind, drawn."""
    return re.sub(r"\{(\w+)\}", lambda m: rng.choice(words[m[1]]), template)


PER_TEMPLATE = 20
rng = random.Random(0)
made = []
for template in TEMPLATES:
    drawn = {}  # a dict keeps the order: PER_TEMPLATE different sentences
    while len(drawn) < PER_TEMPLATE:
        drawn[fill(template, WORDS, rng)] = None
    made += drawn


def attentions_of_many(sentences):
    """Tokens and attention weights of many sentences, one forward pass.

    One (tokens, weights (layers, heads, T, T)) per sentence, cut to its
    own T tokens: no token gives the padding after them any weight.
    """
    batch = tokenizer(sentences, padding=True, return_tensors="pt")
    with torch.no_grad():
        out = model(**batch, output_attentions=True)
    w = torch.stack(out.attentions, 1)  # (sentences, layers, heads, T, T)
    ids, lengths = batch["input_ids"], batch["attention_mask"].sum(-1)
    return [
        (tokenizer.convert_ids_to_tokens(ids[i, :n]), w[i, ..., :n, :n])
        for i, n in enumerate(lengths.tolist())
    ]


def on_top(weights, name):
    """For each word token: is the token the pattern names its top one?

    weights: (T, T), one head's; the rows are those pattern_scores uses.
    """
    t = weights.shape[-1]
    rows = torch.arange(1, t - 1)  # the word tokens
    rows, target = {
        "previous token": (rows[1:], rows[1:] - 1),
        "next token": (rows[:-1], rows[:-1] + 1),
        "on [CLS]": (rows, torch.zeros_like(rows)),
    }[name]
    return weights[rows].argmax(-1) == target


many = attentions_of_many(made)
per_sentence = torch.stack([pattern_scores(w) for _, w in many])
# (sentences, 4 patterns, layers, heads)
n_heads = per_sentence.shape[-1]

print(f'{len(made)} sentences from {len(TEMPLATES)} templates, e.g. '
      f'"{made[0]}"')  # fmt: skip
print("pattern         head   picked alone  mean   sd  lowest  on top")
for k, name in enumerate(patterns[:3]):
    at = best[name]  # (layer, head): the head found on our own sentences
    score = per_sentence[:, k, at[0], at[1]]  # (sentences,)
    alone = per_sentence[:, k].flatten(1).argmax(1) == at[0] * n_heads + at[1]
    top = torch.cat([on_top(w[at], name) for _, w in many])
    layer, head = at[0] + 1, at[1] + 1  # counted from 1
    print(f"{name:<14}  {layer}, {head:<2}  {alone.sum():3d} of {len(made)}"
          f"   {score.mean():.2f} {score.std():.2f}    {score.min():.2f}"
          f"    {top.float().mean():4.0%}")  # fmt: skip

mean = per_sentence.mean(0)  # (4, layers, heads): over all of them at once
found = [divmod(mean[k].argmax().item(), n_heads) for k in range(3)]
print(f"on all {len(made)} at once, the code picks the same heads:",
      found == [best[name] for name in patterns[:3]])  # fmt: skip
cls_made, sep_made = mean[2], mean[3]  # (layers, heads) each
print(f"heads above 0.5 on [CLS]: {(cls_made > 0.5).sum()} of "
      f"{cls_made.numel()}, median {cls_made.median():.2f}; most on [SEP]: "
      f"{sep_made.max():.2f}")  # fmt: skip
ratio = cls_made.mean(-1) / sep_made.mean(-1)  # (layers,)
print("[CLS] over [SEP], per layer:", " ".join(f"{r:.0f}" for r in ratio))
# --8<-- [end:page]
