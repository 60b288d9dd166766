"""Are the heads that matter the ones the real-model page found?"""

from snippets.ablation.ex06_one_head_columns import known_heads
from snippets.ablation.ex07_single_heads import change, n_heads, n_layers
from snippets.real_model.ex04_find_heads import scores

# --8<-- [start:page]
rank = change.flatten().argsort(descending=True).argsort() + 1  # 1 = most
rank = rank.view(n_layers, n_heads)
for name, (layer, head) in known_heads.items():
    print(f"{name:>14} head, layer {layer + 1} head {head + 1:2d}: "
          f"change {change[layer, head]:.4f}, rank {rank[layer, head]} "
          f"of {rank.numel()}")  # fmt: skip
print("mean change per layer:",
      "  ".join(f"{m:.4f}" for m in change.mean(dim=1).tolist()))  # fmt: skip

early = change[:-1]  # layers 1 to 5: the last layer is a case of its own
sinks = scores[2][:-1] > 0.5  # heads giving [CLS] over half their weight
print(f"layers 1-{n_layers - 1}, mean change: {sinks.sum()} sink heads "
      f"{early[sinks].mean():.4f}, the other {(~sinks).sum()} heads "
      f"{early[~sinks].mean():.4f}")  # fmt: skip
# --8<-- [end:page]
