"""One attention layer, nothing else: no residual, no MLP, no layer norm."""

import torch
from torch import nn

from snippets.training.data import D_MODEL


class Attention(nn.Module):
    """`n_heads` heads of width `head_dim`, then W_o down to the two outputs.

    Two heads of width 2 and one head of width 4 have the same projections
    (4 x 4 for queries, keys and values) and so the same parameter count.
    """

    def __init__(self, n_heads: int, head_dim: int, d_out: int = 2):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, head_dim
        width = n_heads * head_dim
        self.W_query = nn.Linear(D_MODEL, width)
        self.W_key = nn.Linear(D_MODEL, width)
        self.W_value = nn.Linear(D_MODEL, width)
        self.W_o = nn.Linear(width, d_out)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Outputs (n, T, d_out) and attention weights (n, heads, T, T)."""
        n, t, _ = x.shape

        def split(z):  # (n, T, heads * head_dim) -> (n, heads, T, head_dim)
            return z.view(n, t, self.n_heads, self.head_dim).transpose(1, 2)

        q, k, v = (
            split(self.W_query(x)),
            split(self.W_key(x)),
            split(self.W_value(x)),
        )
        scores = (
            q @ k.transpose(-2, -1) / self.head_dim**0.5
        )  # (n, heads, T, T)
        weights = scores.softmax(dim=-1)  # every row sums to one
        context = (
            (weights @ v).transpose(1, 2).reshape(n, t, -1)
        )  # (n, T, width)
        return self.W_o(context), weights


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
