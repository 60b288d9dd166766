"""Numbers that describe a trained (or untrained) model."""

import torch


def js_divergence(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """Jensen-Shannon divergence, in bits, of distributions on the last axis.

    0 when p and q are equal; 1 bit when they share no support.
    """
    m = (p + q) / 2

    def kl(a, b):  # sum a * log2(a / b), with 0 * log 0 = 0
        return torch.where(
            a > 0, a * (a / b).log2(), torch.zeros_like(a)
        ).sum(-1)

    return (kl(p, m) + kl(q, m)) / 2


def head_divergence(weights: torch.Tensor) -> float:
    """Mean JS divergence between the rows of head 0 and head 1.

    weights: (n, heads, T, T) attention weights with at least two heads.
    """
    return js_divergence(weights[:, 0], weights[:, 1]).mean().item()


def accuracy(
    prediction: torch.Tensor, target: torch.Tensor, tol: float = 0.1
):
    """Share of predictions within `tol` of the target, per output channel."""
    return (
        ((prediction - target).abs() < tol).float().mean(dim=(0, 1))
    )  # (2,)


def where_heads_look(weights: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Mean attention each head puts on the two places the task asks about.

    Returns (heads, 2): column 0 the previous position, column 1 the position
    with the largest key feature. (Where those coincide, a weight counts for
    both.)
    """
    n, heads, t, _ = weights.shape
    previous = (torch.arange(t) - 1) % t  # (T,) row i -> column i - 1
    on_previous = weights[:, :, torch.arange(t), previous]  # (n, heads, T)
    largest = x[..., 1].argmax(dim=1)  # (n,) position of the largest k
    index = largest[:, None, None, None].expand(n, heads, t, 1)
    on_largest = weights.gather(-1, index)[..., 0]  # (n, heads, T)
    return torch.stack(
        [on_previous.mean((0, 2)), on_largest.mean((0, 2))], -1
    )
