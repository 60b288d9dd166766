"""The same total width, split into more or fewer heads."""

from snippets.training.ex01_task import make_batch, torch
from snippets.training.ex03_model import Attention, count_parameters

# isort: split
# --8<-- [start:page]
from torch.utils.flop_counter import FlopCounterMode

WIDTHS = [(1, 4), (2, 2), (4, 1), (2, 1), (1, 8)]  # (h, d_head)


def multiply_adds(model, x):
    """What model(x) multiplies and adds: torch counts 2 FLOPs for each."""
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        model(x)
    return counter.get_total_flops() // 2


x, _ = make_batch(1, torch.Generator().manual_seed(0))  # one sequence
print("h x d_head  softmax rows  parameters  multiply-adds")
for h, d_head in WIDTHS:
    model = Attention(h, d_head)
    rows = h * x.shape[1]  # one row per head per position
    print(f"{h} x {d_head:<6} {rows:12d}  {count_parameters(model):10d}"
          f"  {multiply_adds(model, x):13d}")  # fmt: skip
# --8<-- [end:page]
