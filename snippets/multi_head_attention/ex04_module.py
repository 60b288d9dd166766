import torch
from torch import nn

from snippets.multi_head_attention.ex01_loop_of_heads import causal_mask


# --8<-- [start:page]
class MultiHeadAttention(nn.Module):
    """All heads at once: one projection each for Q, K, V, split in heads."""

    def __init__(self, d_model, *, num_heads, d_head=None, causal=True):
        super().__init__()
        if d_head is None:  # the usual choice: d_model split evenly
            assert d_model % num_heads == 0, "d_model must split into heads"
            d_head = d_model // num_heads
        self.num_heads, self.d_head, self.causal = num_heads, d_head, causal
        width = num_heads * d_head  # h * d_head: every head side by side
        self.W_q = nn.Linear(d_model, width, bias=False)  # all heads' queries
        self.W_k = nn.Linear(d_model, width, bias=False)  # all heads' keys
        self.W_v = nn.Linear(d_model, width, bias=False)  # all heads' values
        self.W_o = nn.Linear(width, d_model, bias=False)  # mixes the heads

    def split(self, x):  # x: (b, t, h * d_head)
        b, t, _ = x.shape
        x = x.view(b, t, -1, self.d_head)  # (b, t, h, d_head)
        return x.transpose(1, 2)  # (b, h, t, d_head)

    def attend(self, q, k, v):  # each (b, h, t, d_head)
        scores = q @ k.transpose(-2, -1) / self.d_head**0.5  # (b, h, t, t)
        if self.causal:
            future = causal_mask(q.shape[2])  # (t, t)
            scores = scores.masked_fill(future, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # (b, h, t, t)
        return weights @ v  # (b, h, t, d_head)

    def forward(self, x):  # x: (b, t, d_model)
        b, t, _ = x.shape
        q = self.split(self.W_q(x))  # (b, h, t, d_head)
        k = self.split(self.W_k(x))  # (b, h, t, d_head)
        v = self.split(self.W_v(x))  # (b, h, t, d_head)
        context = self.attend(q, k, v)  # (b, h, t, d_head)
        context = context.transpose(1, 2)  # (b, t, h, d_head)
        context = context.contiguous().view(b, t, -1)  # (b, t, h * d_head)
        return self.W_o(context)  # (b, t, d_model)


# --8<-- [end:page]
