from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# isort: split
# --8<-- [start:page]
from torch import nn


class GroupedQueryAttention(MultiHeadAttention):
    """Multi-head attention whose query heads share key-value heads."""

    def __init__(self, d_model, *, num_heads, num_kv_heads, **kwargs):
        super().__init__(d_model, num_heads=num_heads, **kwargs)
        assert num_heads % num_kv_heads == 0, "groups must be equal"
        self.group = num_heads // num_kv_heads  # query heads per kv head
        d_kv = num_kv_heads * self.d_head  # narrower than h * d_head
        self.W_k = nn.Linear(d_model, d_kv, bias=False)  # num_kv_heads keys
        self.W_v = nn.Linear(d_model, d_kv, bias=False)  # and values

    def forward(self, x):  # x: (b, t, d_model)
        b, t, _ = x.shape
        q = self.split(self.W_q(x))  # (b, h, t, d_head)
        k = self.split(self.W_k(x))  # (b, h_kv, t, d_head): cached
        v = self.split(self.W_v(x))  # (b, h_kv, t, d_head)
        k = k.repeat_interleave(self.group, dim=1)  # (b, h, t, d_head)
        v = v.repeat_interleave(self.group, dim=1)  # (b, h, t, d_head)
        context = self.attend(q, k, v)  # (b, h, t, d_head)
        context = context.transpose(1, 2)  # (b, t, h, d_head)
        context = context.contiguous().view(b, t, -1)  # (b, t, h * d_head)
        return self.W_o(context)  # (b, t, d_model)


# --8<-- [end:page]
