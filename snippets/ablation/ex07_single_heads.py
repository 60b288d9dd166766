"""All 72 heads of all-MiniLM-L6-v2, removed one at a time."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import (
    embed,
    full,
    head_dim,
    n_heads,
    n_layers,
    pairs_accuracy,
    projections,
    torch,
)

# --8<-- [start:page]
SMALL = 0.01  # a change of the embeddings below this counts as small


def similarity(e):
    """Mean cosine similarity with the full model's embeddings."""
    return (e * full).sum(dim=-1).mean().item()


change = torch.zeros(n_layers, n_heads)  # 1 - similarity, head removed
accuracy_without = torch.zeros(n_layers, n_heads)  # the pairs task
for layer in range(n_layers):
    for head in range(n_heads):
        with heads_removed({projections[layer]: [head]}, head_dim):
            e = embed()
        change[layer, head] = 1 - similarity(e)
        accuracy_without[layer, head] = pairs_accuracy(e)

flat = change.flatten()
print(f"{flat.numel()} heads removed one at a time; 1 - cosine similarity "
      f"with the full model: median {flat.median():.4f}, "
      f"largest {flat.max():.4f}")  # fmt: skip
print(f"below {SMALL}: {(flat < SMALL).sum()} of {flat.numel()} heads")
print(f"pairs task, look-alikes included, without any one head: "
      f"{accuracy_without.min():.2f} to {accuracy_without.max():.2f} "
      f"(full model {pairs_accuracy(full):.2f})")  # fmt: skip
print("the heads whose removal moves the embeddings most:")
for i in flat.argsort(descending=True)[:5].tolist():
    layer, head = divmod(i, n_heads)
    print(f"  layer {layer} head {head:2d}: {flat[i]:.4f}")
# --8<-- [end:page]
