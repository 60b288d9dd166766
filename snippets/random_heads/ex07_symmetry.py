import torch

from snippets.attention_inputs import inputs
from snippets.one_head.ex04_context import context
from snippets.random_heads.ex01_init_schemes import linear_init
from snippets.random_heads.ex04_yardstick import js_divergence
from snippets.second_head.ex02_context import context2


# --8<-- [start:page]
def make_head():  # its W_q, W_k, W_v (3, 2) and its two rows of W_o (2, 4)
    shapes = [(3, 2), (3, 2), (3, 2), (2, 4)]
    return [linear_init(*s).double().requires_grad_() for s in shapes]


def attention(head, x):  # (6, 6): the head's weights
    W_q, W_k, W_v, W_o = head
    return torch.softmax((x @ W_q) @ (x @ W_k).T / 2**0.5, dim=-1)


def layer(heads, x):  # (6, 4): concat(heads) @ W_o, as a sum over heads
    out = 0
    for head in heads:
        W_q, W_k, W_v, W_o = head
        out = out + attention(head, x) @ (x @ W_v) @ W_o
    return out


# float64 throughout: 300 steps could magnify float32's last-digit rounding
inputs64 = inputs.double()  # (6, 3)
target = torch.cat([context, context2], dim=-1).double()  # (6, 4): heads 1, 2


def train(heads, steps=300):
    optimizer = torch.optim.Adam([p for h in heads for p in h], lr=0.05)
    for _ in range(steps):
        loss = ((layer(heads, inputs64) - target) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def gap(heads):  # largest difference between the two heads' parameters
    diffs = [(p - q).abs().max() for p, q in zip(*heads, strict=True)]
    return max(diffs).item()


def js(heads):  # how differently the two heads attend, in bits
    with torch.no_grad():
        return js_divergence(*(attention(h, inputs64) for h in heads)).mean()


torch.manual_seed(0)
head = make_head()
starts = {
    "identical": [head, [p.detach().clone().requires_grad_() for p in head]],
    "different": [make_head(), make_head()],
}
for name, heads in starts.items():
    before = f"gap {gap(heads):.3f}, JS {js(heads):.4f}"
    train(heads)
    after = f"gap {gap(heads):.3f}, JS {js(heads):.4f}"
    print(f"{name:>9} start: {before} -> after training: {after}")
# --8<-- [end:page]
