"""The forward and backward pass of the training page's model, by hand."""

from snippets.train_it.ex01_stream import (
    DESIGNS,
    WIDTH,
    initial_weights,
    make_batch,
    random,
    torch,
)
from snippets.training.ex03_model import Attention

# isort: split
# --8<-- [start:page]
import torch.nn.functional as F


def forward(W, x, n_heads):
    """Attention's forward pass; also returns what backward needs."""
    n, t, _ = x.shape  # (n, T, 8)
    d = WIDTH // n_heads  # d_head

    def split(z):  # (n, T, WIDTH) -> (n, h, T, d_head)
        return z.view(n, t, n_heads, d).transpose(1, 2)

    q = split(x @ W["W_query.weight"].T + W["W_query.bias"])
    k = split(x @ W["W_key.weight"].T + W["W_key.bias"])
    v = split(x @ W["W_value.weight"].T + W["W_value.bias"])
    a = (q @ k.transpose(-2, -1) / d**0.5).softmax(-1)  # (n, h, T, T)
    context = (a @ v).transpose(1, 2).reshape(n, t, WIDTH)  # (n, T, 4)
    out = context @ W["W_o.weight"].T + W["W_o.bias"]  # (n, T, 2)
    return out, (x, q, k, v, a, context)


def backward(W, saved, d_out):
    """d loss / d weight for every weight, from d_out = d loss / d out."""
    x, q, k, v, a, context = saved
    n, h, t, d = q.shape
    grads = {
        "W_o.weight": d_out.flatten(0, 1).T @ context.flatten(0, 1),  # (2, 4)
        "W_o.bias": d_out.sum((0, 1)),  # (2,)
    }
    d_context = d_out @ W["W_o.weight"]  # (n, T, 4)
    d_context = d_context.view(n, t, h, d).transpose(1, 2)  # (n, h, T, d)
    d_a = d_context @ v.transpose(-2, -1)  # (n, h, T, T)
    d_v = a.transpose(-2, -1) @ d_context  # (n, h, T, d)
    # the softmax's backward: each row's a * (d_a - its a-weighted mean)
    d_scores = a * (d_a - (a * d_a).sum(-1, keepdim=True)) / d**0.5
    d_q = d_scores @ k  # (n, h, T, d)
    d_k = d_scores.transpose(-2, -1) @ q  # (n, h, T, d)
    for name, d_z in [("W_query", d_q), ("W_key", d_k), ("W_value", d_v)]:
        d_z = d_z.transpose(1, 2).reshape(n * t, WIDTH)  # (n T, 4)
        grads[f"{name}.weight"] = d_z.T @ x.reshape(n * t, -1)  # (4, 8)
        grads[f"{name}.bias"] = d_z.sum(0)  # (4,)
    # The key bias adds q . b to every score of a row, and a softmax ignores
    # what is added to a whole row: its gradient is zero (d_k.sum(0) above
    # is rounding noise, which Adam would divide by its EPS and follow).
    grads["W_key.bias"] = torch.zeros_like(grads["W_key.bias"])
    return grads


def loss_and_grads(W, x, y, n_heads):
    out, saved = forward(W, x, n_heads)
    loss = ((out - y) ** 2).mean()  # MSE
    d_out = 2 * (out - y) / out.numel()  # (n, T, 2)
    return loss.item(), backward(W, saved, d_out)


def autograd_grads(W, x, y, n_heads, d_head):
    """The same gradients from the training page's Attention and autograd."""
    model = Attention(n_heads, d_head).double()
    model.load_state_dict(W)
    F.mse_loss(model(x)[0], y).backward()
    return {name: p.grad for name, p in model.named_parameters()}


x, y = make_batch(256, random.Random(1))
for design, (n_heads, d_head) in DESIGNS.items():
    W = initial_weights(seed=0)
    mine = loss_and_grads(W, x, y, n_heads)[1]
    theirs = autograd_grads(W, x, y, n_heads, d_head)
    same = all(torch.allclose(mine[p], g, rtol=1e-12, atol=1e-16)
               for p, g in theirs.items())  # fmt: skip
    print(f"{design}: every gradient is autograd's:", same)
# --8<-- [end:page]
