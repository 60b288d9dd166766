"""The designs side by side: parameters, and attention layers in series."""

from snippets.training.ex03_model import Attention, count_parameters
from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer
from snippets.width_and_depth.ex06b_stream_control import TwoHeadsOnStream


# --8<-- [start:page]
def in_series(model):
    """Attention layers that run one after another: each needs the last."""
    return len(model.layers) if isinstance(model, OneHeadPerLayer) else 1


models = {  # name -> (the model, what it is)
    "2 x 2": (Attention(2, 2), "one layer, two heads of width 2"),
    "1 x 4": (Attention(1, 4), "one layer, one head of width 4"),
    "1 layer": (OneHeadPerLayer(1), "one head of width 4 on a stream"),
    "2 layers": (OneHeadPerLayer(2), "two layers of one head each"),
    "2 x 2 on stream": (TwoHeadsOnStream(), "two heads of width 2 on it"),
}
print(f"{'design':15}  {'':31} parameters  layers in series")
for name, (model, what) in models.items():
    n = count_parameters(model)
    print(f"{name:15}  {what:31} {n:10d}  {in_series(model):16d}")
# --8<-- [end:page]
