"""All 72 heads of all-MiniLM-L6-v2, removed one at a time."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import (
    embed,
    full,
    head_dim,
    model,
    n_heads,
    n_layers,
    pairs_accuracy,
    pool,
    projections,
    torch,
)

# --8<-- [start:page]
SMALL = 0.01  # a change of the embeddings below this counts as small


def similarity(emb):
    """Mean cosine similarity with the full model's embeddings."""
    return (emb * full).sum(dim=-1).mean().item()


# A head in layer l cannot change what layers 0 to l - 1 compute. So we run
# the full model once more, keep what each layer receives, and start there.
layers = model.encoder.layer
received = []  # each layer's (args, kwargs) in the full model


def keep(layer, args, kwargs):
    received.append((args, kwargs))


handles = [
    layer.register_forward_pre_hook(keep, with_kwargs=True)
    for layer in layers
]
embed()
for handle in handles:
    handle.remove()


def embed_from(start):
    """embed(), running only layers start, start + 1, ... from what layer
    `start` received in the full model."""
    (hidden, *rest), kwargs = received[start]
    with torch.inference_mode():
        for layer in layers[start:]:
            hidden = layer(hidden, *rest, **kwargs)
    return pool(hidden)


print(f"layers 1 to {n_layers} from what layer 1 receives give the same "
      "embeddings:", torch.equal(embed_from(0), full))  # fmt: skip

change = torch.zeros(n_layers, n_heads)  # 1 - similarity, head removed
accuracy_without = torch.zeros(n_layers, n_heads)  # the pairs task
for layer in range(n_layers):
    for head in range(n_heads):
        with heads_removed({projections[layer]: [head]}, head_dim):
            emb = embed_from(layer)
        change[layer, head] = 1 - similarity(emb)
        accuracy_without[layer, head] = pairs_accuracy(emb)

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
    layer, head = divmod(i, n_heads)  # indices; printed counting from 1
    print(f"  layer {layer + 1} head {head + 1:2d}: {flat[i]:.4f}")
# --8<-- [end:page]
