"""Prune more and more heads: least important first, or in random order."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import (
    embed,
    head_dim,
    n_heads,
    n_layers,
    pairs_accuracy,
    projections,
    torch,
)
from snippets.ablation.ex07_single_heads import change, similarity

# isort: split
# --8<-- [start:page]
from functools import cache

N_RANDOM = 3  # random orders, averaged
REMOVED = range(0, n_layers * n_heads + 1, 12)  # heads removed: 0, 12, ... 72
heads = [
    (layer, head) for layer in range(n_layers) for head in range(n_heads)
]
greedy = [
    heads[i] for i in change.flatten().argsort().tolist()
]  # least first
generator = torch.Generator().manual_seed(0)
shuffled = [
    [heads[i] for i in torch.randperm(len(heads), generator=generator)]
    for _ in range(N_RANDOM)
]


def by_layer(removed):
    """[(layer, head), ...] -> {its layer's output projection: [head, ...]}"""
    projection_heads = {}
    for layer, head in removed:
        projection_heads.setdefault(projections[layer], []).append(head)
    return projection_heads


@cache  # each set of heads is run once (none, and all 72: every order)
def pruned(removed):
    """Our sentences' embeddings with a frozenset of (layer, head) removed."""
    with heads_removed(by_layer(removed), head_dim):
        return embed()


def curve(order):
    """Similarity and pairs accuracy after each count removed: (len(REMOVED),
    2)."""
    embeddings = [pruned(frozenset(order[:k])) for k in REMOVED]
    return torch.tensor(
        [[similarity(emb), pairs_accuracy(emb)] for emb in embeddings]
    )


greedy_curve = curve(greedy)
random_curves = torch.stack([curve(order) for order in shuffled])
random_curve = random_curves.mean(dim=0)
print(f"{'':16}least important first    random order (mean of {N_RANDOM})")
print(f"{'heads removed':16}similarity  accuracy     similarity  accuracy")
for k, (g_sim, g_acc), (r_sim, r_acc) in zip(
    REMOVED, greedy_curve.tolist(), random_curve.tolist(), strict=True
):
    share = f"{k} ({k / len(heads):.0%})"
    print(
        f"{share:16}{g_sim:10.3f} {g_acc:9.2f}     {r_sim:10.3f} {r_acc:9.2f}"
    )

none_left = pruned(frozenset(heads))  # no attention at all
print(f"every head removed, paraphrase nearest: unrelated distractors "
      f"{pairs_accuracy(none_left, lookalikes=False):.2f}, look-alikes "
      f"included {pairs_accuracy(none_left):.2f}")  # fmt: skip
# --8<-- [end:page]
