"""Our sentences, the sentence embedding, and the pairs task."""

from snippets.real_model.ex02_load import config, folder, model, tokenizer

# isort: split
# --8<-- [start:page]
import json

import torch
import torch.nn.functional as F

# Eight couples of paraphrase pairs. Within a couple, one word (bank, match,
# light, ...) has two meanings, so each sentence has a look-alike: the other
# pair's first sentence, with the same word and a different meaning.
COUPLES = [
    (("He sat on the bank of the river.", "He sat at the water's edge."),
     ("He sat in the bank, waiting for a loan.",
      "He waited at the branch to borrow money.")),
    (("The match was cancelled because of rain.", "Rain stopped the game."),
     ("The match would not light because of the rain.",
      "The wet stick would not catch fire.")),
    (("The box is light enough to carry.", "The box does not weigh much."),
     ("The box has a light inside it.", "There is a lamp in the box.")),
    (("The judge was fair to both sides.",
      "The judge treated everyone equally."),
     ("The judge went to the fair with both sons.",
      "The judge took his two boys on the carnival rides.")),
    (("The bark of the dog was loud.", "The dog made a loud noise."),
     ("The bark of the tree was rough.",
      "The tree's outer layer felt coarse.")),
    (("He saw a seal on the beach.", "He spotted a sea animal on the sand."),
     ("He put a seal on the letter.", "He closed the envelope with wax.")),
    (("The pitch was wet after the storm.",
      "The playing field was soaked after the storm."),
     ("The pitch of her voice rose after the storm.",
      "Her voice got higher after the storm.")),
    (("She will watch the film tonight.",
      "She is going to see the movie this evening."),
     ("Her watch stopped during the film tonight.",
      "Her timepiece broke while the movie played this evening.")),
]  # fmt: skip
texts = [s for couple in COUPLES for pair in couple for s in pair]
n = len(texts)  # 32: pair k is texts[2k] and texts[2k + 1]
partner = torch.arange(n) ^ 1  # each sentence's paraphrase: 0-1, 2-3, ...
couple = torch.arange(n) // 4  # the couple each sentence belongs to

batch = tokenizer(texts, padding=True, return_tensors="pt")
n_layers, n_heads = config.num_hidden_layers, config.num_attention_heads
head_dim = config.hidden_size // n_heads  # 32
# where each layer's heads meet: the context, before the output projection
projections = [layer.attention.output.dense for layer in model.encoder.layer]


def pool(tokens, inputs=batch):
    """Sentence embeddings as sentence-transformers makes them for this
    model: the mean of the token vectors (padding left out), then scaled to
    length 1. tokens: (sentences, t, 384) -> (sentences, 384)"""
    mask = inputs["attention_mask"][..., None]  # (sentences, t, 1)
    mean = (tokens * mask).sum(1) / mask.sum(1)
    return F.normalize(mean, dim=-1)


def embed(inputs=batch):
    with torch.inference_mode():
        return pool(model(**inputs).last_hidden_state, inputs)


def pairs_accuracy(emb, lookalikes=True):
    """Share of sentences whose nearest other sentence is their paraphrase.

    The distractors are all the other sentences; with lookalikes=False,
    only those of other couples (unrelated sentences)."""
    similarity = emb @ emb.T  # cosine similarity: the rows have length 1
    hide = torch.eye(n, dtype=torch.bool)  # a sentence is not a candidate
    if not lookalikes:
        others = partner[:, None] != torch.arange(n)
        hide |= (couple[:, None] == couple) & others
    nearest = similarity.masked_fill(hide, -2).argmax(dim=1)
    return (nearest == partner).float().mean().item()


modules = json.loads((folder / "modules.json").read_text())
pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
print(" -> ".join(m["type"].split(".")[-1] for m in modules),
      "| mean pooling:", pooling["pooling_mode_mean_tokens"])  # fmt: skip
print(f"{n} sentences: {n // 2} paraphrase pairs in {len(COUPLES)} couples")
full = embed()
print(f"paraphrase nearest, unrelated distractors: "
      f"{pairs_accuracy(full, lookalikes=False):.2f}")  # fmt: skip
print(
    f"paraphrase nearest, look-alikes included:  {pairs_accuracy(full):.2f}"
)
# --8<-- [end:page]
