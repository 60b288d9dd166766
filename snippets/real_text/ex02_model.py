from snippets.real_text.ex01_corpus import VOCAB, torch

# isort: split
# --8<-- [start:page]
import math
from dataclasses import dataclass

import torch.nn as nn


@dataclass
class Config:
    num_heads: int
    d_model: int = 64  # numbers per character, whatever the number of heads
    n_layer: int = 2
    context: int = 64  # characters the model sees at once


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.h, self.d_model = c.num_heads, c.d_model
        self.d_head = c.d_model // c.num_heads
        # W_q, W_k and W_v side by side: (d_model, 3 d_model) for every h
        self.qkv = nn.Linear(c.d_model, 3 * c.d_model)
        self.W_o = nn.Linear(c.d_model, c.d_model)
        causal = torch.ones(c.context, c.context).tril().bool()
        self.register_buffer("causal", causal)  # (T, T)

    def forward(self, x):  # x: (b, t, d_model)
        b, t, _ = x.shape
        q, k, v = self.qkv(x).split(self.d_model, dim=2)  # (b, t, d_model)
        # the one place h enters: cut the columns into h heads of d_head
        q, k, v = (z.view(b, t, self.h, self.d_head).transpose(1, 2)
                   for z in (q, k, v))  # (b, h, t, d_head)  # fmt: skip
        # (b, h, t, t): one map of scores per head
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        scores = scores.masked_fill(~self.causal[:t, :t], float("-inf"))
        weights = scores.softmax(dim=-1)  # a softmax per head and position
        heads = weights @ v  # (b, h, t, d_head)
        concat = heads.transpose(1, 2).reshape(b, t, self.d_model)
        return self.W_o(concat)  # (b, t, d_model)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.d_model)
        self.attn = CausalSelfAttention(c)
        self.ln_2 = nn.LayerNorm(c.d_model)
        self.mlp = nn.Sequential(
            nn.Linear(c.d_model, 4 * c.d_model),
            nn.GELU(),
            nn.Linear(4 * c.d_model, c.d_model),
        )

    def forward(self, x):  # (b, t, d_model)
        x = x + self.attn(self.ln_1(x))  # each position reads earlier ones
        return x + self.mlp(self.ln_2(x))  # each position on its own


class GPT(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.tokens = nn.Embedding(VOCAB, c.d_model)
        self.places = nn.Embedding(c.context, c.d_model)  # one per place
        self.blocks = nn.Sequential(*[Block(c) for _ in range(c.n_layer)])
        self.ln_f = nn.LayerNorm(c.d_model)
        self.head = nn.Linear(c.d_model, VOCAB)

    def forward(self, idx):  # idx: (b, t) character ids
        x = self.tokens(idx) + self.places(torch.arange(idx.shape[1]))
        return self.head(self.ln_f(self.blocks(x)))  # (b, t, vocab): logits


# --8<-- [end:page]
