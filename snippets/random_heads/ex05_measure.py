import torch

from snippets.attention_inputs import inputs
from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex02_one_pair import random_head_weights
from snippets.random_heads.ex04_yardstick import js_divergence


# --8<-- [start:define]
def correlation(u, v):  # per row of u and v
    u, v = u - u.mean(-1, keepdim=True), v - v.mean(-1, keepdim=True)
    return (u * v).sum(-1) / (u.norm(dim=-1) * v.norm(dim=-1))


# The sign of a random head's scores is a coin flip (W_q and -W_q are as
# likely), so correlations average to 0 over pairs whatever the heads do: we
# average their size. Two unrelated lists of 36 numbers give this by chance:
unrelated = torch.randn(
    2, 100_000, 36, generator=torch.Generator().manual_seed(0)
)
CHANCE = correlation(*unrelated).abs().mean().item()


def compare_random_heads(init, x, d_head):  # x: (pairs, 6, d_model)
    torch.manual_seed(0)  # the same draws for every initialisation
    a, scores_a = random_head_weights(init, x, d_head)  # (pairs, 6, 6)
    b, scores_b = random_head_weights(init, x, d_head)  # each
    both = torch.stack([a, b])  # (2, pairs, 6, 6)
    scaled = scores_a / d_head**0.5  # what the softmax sees
    flat_a, flat_b = scores_a.flatten(1), scores_b.flatten(1)  # (pairs, 36)
    measures = {
        "JS divergence, bits": js_divergence(a, b),
        "largest |A - B|": (a - b).abs().amax(dim=(1, 2)),
        "largest |w - 1/6|": (both - 1 / 6).abs().amax(dim=(0, 2, 3)),
        "same top token": (a.argmax(-1) == b.argmax(-1)).double(),
        "score |correlation|": correlation(flat_a, flat_b).abs(),
        "score spread": scaled.amax(-1) - scaled.amin(-1),
    }
    return {name: m.mean().item() for name, m in measures.items()}


def show(results):  # one row per measure, one column per initialisation
    print(f"{'':<20}" + "".join(f"{name:>12}" for name in results))
    for measure in next(iter(results.values())):
        row = "".join(f"{r[measure]:>12.4f}" for r in results.values())
        print(f"{measure:<20}{row}")
    print(f"(|correlation| of unrelated scores: {CHANCE:.4f})")


# --8<-- [end:define]

# --8<-- [start:page]
pairs = 1000  # all reading our six tokens
toy = {
    name: compare_random_heads(init, inputs.expand(pairs, 6, 3), d_head=2)
    for name, init in inits.items()
}
show(toy)
# --8<-- [end:page]
