import torch
from torch import nn


def causal_mask(t):
    """True above the diagonal: token i may not look at tokens after i."""
    return torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)  # (t, t)


class Head(nn.Module):
    """One attention head with its own three projections."""

    def __init__(self, d_in, d_head, causal=True):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_head, bias=False)
        self.W_k = nn.Linear(d_in, d_head, bias=False)
        self.W_v = nn.Linear(d_in, d_head, bias=False)
        self.causal = causal

    def forward(self, x):  # x: (b, t, d_in)
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)  # (b, t, d_head)
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5  # (b, t, t)
        if self.causal:
            future = causal_mask(x.shape[1])  # (t, t)
            scores = scores.masked_fill(future, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # (b, t, t), rows sum to 1
        return weights @ v  # (b, t, d_head)


class LoopOfHeads(nn.Module):
    """Several heads side by side, concatenated, then mixed by W_o."""

    def __init__(self, d_in, d_out, num_heads, causal=True):
        super().__init__()
        d_head = d_out // num_heads
        self.heads = nn.ModuleList(
            Head(d_in, d_head, causal) for _ in range(num_heads)
        )
        self.W_o = nn.Linear(d_out, d_out, bias=False)

    def forward(self, x):  # x: (b, t, d_in)
        outs = [head(x) for head in self.heads]  # h x (b, t, d_head)
        out = torch.cat(outs, dim=-1)  # (b, t, d_out)
        return self.W_o(out)  # (b, t, d_out)
