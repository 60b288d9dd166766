from snippets.training.ex01_task import D_MODEL

# isort: split
# --8<-- [start:page]
from torch import nn


class Attention(nn.Module):
    """n_heads heads of width d_head, then W_o down to two outputs.

    d_model: the numbers per position it reads (the task's 8, unless told).
    """

    def __init__(self, n_heads, d_head, n_outputs=2, d_model=D_MODEL):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_head
        width = n_heads * d_head  # h * d_head: every head side by side
        self.W_query = nn.Linear(d_model, width)
        self.W_key = nn.Linear(d_model, width)
        self.W_value = nn.Linear(d_model, width)
        self.W_o = nn.Linear(width, n_outputs)

    def forward(self, x):
        n, t, _ = x.shape  # (n, T, d_model)

        def split(z):  # (n, T, heads * d_head) -> (n, heads, T, d_head)
            return z.view(n, t, self.n_heads, self.d_head).transpose(1, 2)

        q = split(self.W_query(x))
        k = split(self.W_key(x))
        v = split(self.W_value(x))
        scores = q @ k.transpose(-2, -1) / self.d_head**0.5  # (n, h, T, T)
        weights = scores.softmax(dim=-1)  # one softmax row per head
        context = (weights @ v).transpose(1, 2)  # (n, T, h, d_head)
        context = context.reshape(n, t, -1)  # (n, T, h * d_head)
        return self.W_o(context), weights  # (n, T, 2), (n, h, T, T)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters())


# --8<-- [end:page]
