from snippets.real_model.ex02_load import config
from snippets.real_model.ex09_swap_adjective import tired_head
from snippets.real_model.ex11_made_sentences import (
    attentions_of_many,
    fill,
    random,
    torch,
)

# --8<-- [start:page]
layer = config.num_hidden_layers - 1  # the last layer, as for "too tired"
ROLES = {
    "agent": "animal dog horse boy girl man woman cat child farmer".split(),
    "object": "street river road bridge wall fence hill field".split(),
    "verb": "cross climb jump reach pass".split(),
}
ADJECTIVES = (
    "tired wide heavy small old slow weak narrow steep busy tall young "
    "dark cold loud hot quiet full bright late"
).split()
FRAMES = [  # where "it" and its adjective sit differs from frame to frame
    "The {agent} didn't {verb} the {object} because it was too {adj}.",
    "The {agent} didn't {verb} the {object} because it was {adj}.",
    "The {agent} could not {verb} the {object}, as it was far too {adj}.",
    "Because it was too {adj}, the {agent} didn't {verb} the {object}.",
    "It was too {adj}, so the {agent} didn't {verb} the {object}.",
    "The {agent} found it too {adj} to {verb} the {object}.",
]
rng = random.Random(0)
cases = [  # every adjective in every frame, the other words drawn
    (adjective, fill(frame.replace("{adj}", adjective), ROLES, rng))
    for frame in FRAMES
    for adjective in ADJECTIVES
]
read = attentions_of_many([sentence for _, sentence in cases])

on_adjective = []  # is head 10's top token for "it" the adjective?
gives_most = []  # is head 10 the head of its layer giving the adjective most?
anywhere = 0  # (layers, heads): how often each head's top is the adjective
for (adjective, _), (tokens, weights) in zip(cases, read, strict=True):
    it, adj = tokens.index("it"), tokens.index(adjective)
    rows = weights[:, :, it]  # (layers, heads, T): where "it" looks
    top = rows.argmax(-1)  # (layers, heads): each head's top token
    on_adjective.append(top[layer, tired_head] == adj)
    gives_most.append(rows[layer, :, adj].argmax() == tired_head)
    anywhere = anywhere + (top == adj)
hits = torch.stack(on_adjective).view(len(FRAMES), len(ADJECTIVES)).float()

n, heads = len(cases), anywhere.numel()
print(f"{n} sentences, {len(FRAMES)} frames x {len(ADJECTIVES)} adjectives, "
      f"e.g.\n  {cases[0][1]}")  # fmt: skip
print(f"layer {layer + 1} head {tired_head + 1}, "
      f'top token of "it" is the adjective: '
      f"{hits.sum():.0f} of {n} ({hits.mean():.0%})")  # fmt: skip
print(f"  per frame, of {len(ADJECTIVES)}:",
      " ".join(f"{h:.0f}" for h in hits.sum(1)))  # fmt: skip
never = [a for a, h in zip(ADJECTIVES, hits.sum(0), strict=True) if h == 0]
print("  in no frame:", " ".join(never))
print(
    f"  the layer's head giving the adjective most: {sum(gives_most)} of {n}"
)
best_layer, best_head = divmod(anywhere.argmax().item(), anywhere.shape[1])
print(
    f"most often on the adjective, of all {heads} heads: layer "
    f"{best_layer + 1} head {best_head + 1}, {anywhere.max():.0f} of {n}"
)
# --8<-- [end:page]
