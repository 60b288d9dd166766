"""Depth: one head per layer, the layers one after another on a residual
stream."""

from snippets.training.ex01_task import D_MODEL, torch
from snippets.training.ex03_model import Attention
from snippets.training.ex06_measures import where_heads_look

# isort: split
# --8<-- [start:page]
from torch import nn

D_STREAM = 16  # numbers per position in the residual stream


class OneHeadPerLayer(nn.Module):
    """n_layers layers of one head each, on a residual stream.

    stream = x W_in + b_in                         (n, T, 8) -> (n, T, 16)
    each layer, in turn: stream = stream + head(stream)
        head: the page's Attention with one head of width d_head,
        reading the 16 numbers of the stream; its W_o writes 16 back
    output = stream W_out + b_out                   (n, T, 16) -> (n, T, 2)
    """

    def __init__(self, n_layers, d_head=4):
        super().__init__()
        self.W_in = nn.Linear(D_MODEL, D_STREAM)
        self.layers = nn.ModuleList(
            Attention(1, d_head, n_outputs=D_STREAM, d_model=D_STREAM)
            for _ in range(n_layers)
        )
        self.W_out = nn.Linear(D_STREAM, 2)

    def forward(self, x):
        stream = self.W_in(x)  # (n, T, 16)
        maps = []
        for layer in self.layers:  # one after another
            write, weights = layer(stream)  # (n, T, 16), (n, 1, T, T)
            stream = stream + write  # the layer adds to the stream
            maps.append(weights)
        maps = torch.cat(maps, dim=1)  # (n, layers, T, T)
        return self.W_out(stream), maps  # (n, T, 2), (n, layers, T, T)


def where_layers_look(weights, x):
    """(heads or layers, 3): the mean weight on the previous position, on
    the position with the largest key feature, and on the one just after
    it. weights: (n, heads or layers, T, T)."""
    n, _, t, _ = weights.shape
    after = (x[..., 1].argmax(dim=1) + 1) % t  # (n,): just after max k
    on_after = weights[torch.arange(n), :, :, after].mean((0, 2))  # (layers,)
    return torch.cat([where_heads_look(weights, x), on_after[:, None]], -1)


# --8<-- [end:page]
