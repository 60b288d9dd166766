"""Two baselines for the single-head numbers: a whole layer's heads
removed, and a layer cut down to its best single head."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import (
    head_dim,
    n_heads,
    n_layers,
    pairs_accuracy,
    projections,
    torch,
)
from snippets.ablation.ex07_single_heads import change, embed_from, similarity


# --8<-- [start:page]
def moved(emb):
    """1 - cosine similarity with the full model, and the pairs task."""
    return torch.tensor([1 - similarity(emb), pairs_accuracy(emb)])


every_head = list(range(n_heads))
whole = torch.zeros(n_layers, 2)  # all 12 heads of the layer removed
alone = torch.zeros(n_layers, n_heads, 2)  # only this head of it kept
for layer in range(n_layers):
    with heads_removed({projections[layer]: every_head}, head_dim):
        whole[layer] = moved(embed_from(layer))
    for kept in every_head:  # Michel et al. keep each head alone in turn
        others = [h for h in every_head if h != kept]
        with heads_removed({projections[layer]: others}, head_dim):
            alone[layer, kept] = moved(embed_from(layer))
best_alone = alone[..., 0].argmin(dim=1)  # (layers,): the head best alone

print("1 - cosine similarity with the full model; pairs task accuracy")
print("       one head removed   all 12 removed     only the best head kept")
print("layer  (the largest)      change  accuracy   head  change  accuracy")
for layer in range(n_layers):
    gone, gone_acc = whole[layer].tolist()
    head = best_alone[layer].item()
    kept, kept_acc = alone[layer, head].tolist()
    print(f"{layer + 1:5d}  {change[layer].max():13.4f}  {gone:11.4f}"
          f"  {gone_acc:8.2f}   {head + 1:4d}  {kept:6.4f}"
          f"  {kept_acc:8.2f}")  # fmt: skip
# --8<-- [end:page]
