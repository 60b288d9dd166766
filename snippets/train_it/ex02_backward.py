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
    d_head = WIDTH // n_heads

    def split(z):  # (n, T, WIDTH) -> (n, h, T, d_head)
        return z.view(n, t, n_heads, d_head).transpose(1, 2)

    q = split(x @ W["W_query.weight"].T + W["W_query.bias"])
    k = split(x @ W["W_key.weight"].T + W["W_key.bias"])
    v = split(x @ W["W_value.weight"].T + W["W_value.bias"])
    a = (q @ k.transpose(-2, -1) / d_head**0.5).softmax(-1)  # (n, h, T, T)
    context = (a @ v).transpose(1, 2).reshape(n, t, WIDTH)  # (n, T, 4)
    out = context @ W["W_o.weight"].T + W["W_o.bias"]  # (n, T, 2)
    return out, (x, q, k, v, a, context)


def backward(W, saved, grad_out):
    """d loss / d weight for every weight, from grad_out = d loss / d out.
    Each grad_z is d loss / d z, with the shape of z."""
    x, q, k, v, a, context = saved
    n, h, t, d_head = q.shape
    grads = {
        "W_o.weight": grad_out.flatten(0, 1).T
        @ context.flatten(0, 1),  # (2, 4)
        "W_o.bias": grad_out.sum((0, 1)),  # (2,)
    }
    grad_context = grad_out @ W["W_o.weight"]  # (n, T, 4)
    grad_context = grad_context.view(n, t, h, d_head).transpose(1, 2)
    grad_a = grad_context @ v.transpose(-2, -1)  # (n, h, T, T)
    grad_v = a.transpose(-2, -1) @ grad_context  # (n, h, T, d_head)
    # the softmax's backward: each row's a * (grad_a - its a-weighted mean)
    mean = (a * grad_a).sum(-1, keepdim=True)  # (n, h, T, 1)
    grad_scores = a * (grad_a - mean) / d_head**0.5  # (n, h, T, T)
    grad_q = grad_scores @ k  # (n, h, T, d_head)
    grad_k = grad_scores.transpose(-2, -1) @ q  # (n, h, T, d_head)
    for name, grad_z in [("W_query", grad_q), ("W_key", grad_k),
                         ("W_value", grad_v)]:  # fmt: skip
        grad_z = grad_z.transpose(1, 2).reshape(n * t, WIDTH)  # (n T, 4)
        grads[f"{name}.weight"] = grad_z.T @ x.reshape(n * t, -1)  # (4, 8)
        grads[f"{name}.bias"] = grad_z.sum(0)  # (4,)
    # The key bias adds q . b to every score of a row, and a softmax ignores
    # what is added to a whole row: its gradient is zero (what the sum gives
    # is rounding noise, which Adam would divide by its EPS and follow).
    grads["W_key.bias"] = torch.zeros_like(grads["W_key.bias"])
    return grads


def loss_and_grads(W, x, y, n_heads):
    out, saved = forward(W, x, n_heads)
    loss = ((out - y) ** 2).mean()  # MSE
    grad_out = 2 * (out - y) / out.numel()  # (n, T, 2)
    return loss.item(), backward(W, saved, grad_out)


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
