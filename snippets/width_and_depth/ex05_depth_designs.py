"""The designs side by side: parameters, and attention steps in order."""

from snippets.training.ex03_model import Attention, count_parameters
from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer


# --8<-- [start:page]
def sequential_steps(model):
    """Attention layers that run one after another: each needs the last."""
    return len(model.layers) if isinstance(model, OneHeadPerLayer) else 1


models = {  # name -> (the model, what it is)
    "2 x 2": (Attention(2, 2), "one layer, two heads of width 2"),
    "1 x 4": (Attention(1, 4), "one layer, one head of width 4"),
    "1 layer": (OneHeadPerLayer(1), "one head of width 4 on a stream"),
    "2 layers": (OneHeadPerLayer(2), "two layers of one head each"),
}
print(f"{'design':8}  {'':32} parameters  steps")
for name, (model, what) in models.items():
    n = count_parameters(model)
    print(f"{name:8}  {what:32} {n:10d}  {sequential_steps(model):5d}")
# --8<-- [end:page]
