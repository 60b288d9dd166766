"""The control for depth: two heads of width 2 in one layer, on the same
residual stream as the depth models."""

from snippets.training.ex03_model import Attention
from snippets.width_and_depth.ex04_one_head_per_layer import (
    D_STREAM,
    OneHeadPerLayer,
)

# isort: split
# --8<-- [start:page]
from torch import nn


class TwoHeadsOnStream(OneHeadPerLayer):
    """One layer on the stream, as OneHeadPerLayer(1) is, with the
    training page's two heads of width 2 in place of one head of width 4
    (the same parameters: 462). Its heads' weights are drawn last."""

    def __init__(self):
        super().__init__(n_layers=1)
        self.layers = nn.ModuleList(
            [Attention(2, 2, n_outputs=D_STREAM, d_model=D_STREAM)]
        )


# --8<-- [end:page]
