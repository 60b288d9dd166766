from snippets.training.ex01_task import torch


# --8<-- [start:page]
def js_divergence(p, q):
    """Jensen-Shannon divergence in bits, over the last axis."""
    m = (p + q) / 2

    def kl(a, b):  # sum of a * log2(a / b), counting 0 * log 0 as 0
        terms = torch.where(a > 0, a * (a / b).log2(), torch.zeros_like(a))
        return terms.sum(-1)

    return (kl(p, m) + kl(q, m)) / 2


def head_divergence(weights):
    """Mean JS divergence between head 1's rows and head 2's rows.

    weights: (n, heads, T, T) with at least two heads.
    """
    return js_divergence(weights[:, 0], weights[:, 1]).mean().item()


def where_heads_look(weights, x):
    """(heads, 2): mean weight on the previous position, and on the
    position with the largest key feature."""
    n, heads, t, _ = weights.shape
    rows = torch.arange(t)
    on_previous = weights[:, :, rows, (rows - 1) % t]  # (n, heads, T)
    top = x[..., 1].argmax(dim=1)  # (n,)
    on_top = weights[torch.arange(n), :, :, top]  # (n, heads, T)
    return torch.stack([on_previous.mean((0, 2)), on_top.mean((0, 2))], -1)


# --8<-- [end:page]
