"""Cordonnier et al. (2020), Theorem 1, in one dimension: K heads with
relative-position attention are a K-tap convolution; K - 1 heads are not."""

# --8<-- [start:page]
import torch

F64 = torch.float64  # in double precision: errors down to rounding level
L, C = 12, 2  # positions (on a circle: L - 1 is next to 0), channels
OFFSETS = (-1, 0, 1)  # a 3-tap kernel: K = 3


def relative(n):
    """(n, n): key j's offset from query i, j - i, wrapped to -n/2..n/2-1."""
    i = torch.arange(n)
    return (i[None] - i[:, None] + n // 2) % n - n // 2


def convolution(x, taps):
    """out_i = sum over taps d of taps[d] @ x_{i + OFFSETS[d]}: (L, C)."""
    return sum(
        x.roll(-o, 0) @ tap.T for o, tap in zip(OFFSETS, taps, strict=True)
    )


def heads_as_convolution(x, taps, sharpness):
    """One head per tap: its softmax row peaks at the tap's offset (the
    quadratic score of their Lemma 2) and its value-output map is the tap."""
    delta = relative(len(x)).to(F64)  # (L, L)
    out = torch.zeros_like(x)
    for centre, tap in zip(OFFSETS, taps, strict=True):
        rows = (-sharpness * (delta - centre) ** 2).softmax(-1)  # (L, L)
        out = out + rows @ x @ tap.T  # (L, C)
    return out


# --8<-- [end:page]
# --8<-- [start:sharpen]
torch.manual_seed(0)
taps = torch.randn(len(OFFSETS), C, C, dtype=F64)  # a 3-tap kernel
x = torch.randn(L, C, dtype=F64)
want = convolution(x, taps)
for sharpness in (1, 2, 4, 8, 16):
    gap = (heads_as_convolution(x, taps, sharpness) - want).abs().max()
    print(f"sharpness {sharpness:2d}: largest error {gap.item():.1e}")
gap = (heads_as_convolution(x, taps, 40) - want).abs().max()
print("sharpness 40: error at rounding level (< 1e-13):", gap.item() < 1e-13)


# --8<-- [end:sharpen]
# --8<-- [start:fewer]
def fit_heads(n_heads, target, steps=1500, starts=2):
    """The best n_heads can do, by training: each head a softmax over every
    offset (any relative-position scores) and a value-output map (C, C).
    Returns the smallest error found, relative to the target's size."""
    best = float("inf")
    for start in range(starts):
        torch.manual_seed(start)
        scores = torch.randn(n_heads, L, dtype=F64, requires_grad=True)
        maps = torch.randn(n_heads, C, C, dtype=F64, requires_grad=True)
        optimizer = torch.optim.Adam([scores, maps], lr=0.05)
        for _ in range(steps):
            kernel = torch.einsum("hd,hij->dij", scores.softmax(-1), maps)
            loss = ((kernel - target) ** 2).sum()  # over all L offsets
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        best = min(best, (loss.sqrt() / target.norm()).item())
    return best


target = torch.zeros(L, C, C, dtype=F64)  # the kernel at every offset
for o, tap in zip(OFFSETS, taps, strict=True):
    target[o % L] = tap
stack = taps.reshape(len(OFFSETS), -1)  # each tap's matrix as a row
floor = (torch.linalg.svdvals(stack)[-1] / target.norm()).item()
print(f"no 2 heads with offset-only scores miss by less than {floor:.2f}",
      "of the kernel's norm (rank 2)")  # fmt: skip
fit = fit_heads(2, target)
print(f"2 heads, trained: {fit:.2f}, within 0.001 of that floor:",
      0 <= fit - floor < 0.001)  # fmt: skip
print("3 heads, trained: below 0.01:", fit_heads(3, target) < 0.01)
# --8<-- [end:fewer]
