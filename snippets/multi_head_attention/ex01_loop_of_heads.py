import torch
from torch import nn


def causal_mask(t):
    """True above the diagonal: token i may not look at tokens after i."""
    return torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)  # (t, t)


class Head(nn.Module):
    """One attention head with its own three projections."""

    def __init__(self, d_model, d_head, causal=True):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_head, bias=False)
        self.W_k = nn.Linear(d_model, d_head, bias=False)
        self.W_v = nn.Linear(d_model, d_head, bias=False)
        self.causal = causal

    def forward(self, x):  # x: (b, t, d_model)
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)  # (b, t, d_head)
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5  # (b, t, t)
        if self.causal:
            future = causal_mask(x.shape[1])  # (t, t)
            scores = scores.masked_fill(future, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # (b, t, t), rows sum to 1
        return weights @ v  # (b, t, d_head)


class LoopOfHeads(nn.Module):
    """Several heads side by side, concatenated, then mixed by W_o."""

    def __init__(self, d_model, *, num_heads, d_head=None, causal=True):
        super().__init__()
        if d_head is None:  # the usual choice: d_model split evenly
            assert d_model % num_heads == 0, "d_model must split into heads"
            d_head = d_model // num_heads
        self.heads = nn.ModuleList(
            Head(d_model, d_head, causal) for _ in range(num_heads)
        )
        self.W_o = nn.Linear(num_heads * d_head, d_model, bias=False)

    def forward(self, x):  # x: (b, t, d_model)
        outs = [head(x) for head in self.heads]  # h x (b, t, d_head)
        out = torch.cat(outs, dim=-1)  # (b, t, h * d_head)
        return self.W_o(out)  # (b, t, d_model)
