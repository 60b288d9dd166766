"""h heads side by side at one total width, for a task of k lookups."""

from snippets.how_many_heads.ex01_tasks import LOOKUPS
from snippets.training.ex03_model import Attention, count_parameters

# isort: split
# --8<-- [start:page]
WIDTH = 12  # every design's heads side by side: h * d_head
HEADS = (1, 2, 3, 4)  # 1 x 12, 2 x 6, 3 x 4, 4 x 3
KS = range(1, len(LOOKUPS) + 1)  # tasks of 1, 2, 3 and 4 lookups


def design(h, k):
    """h heads of width WIDTH // h, and W_o down to k outputs."""
    return lambda: Attention(h, WIDTH // h, n_outputs=k)


# --8<-- [end:page]
# --8<-- [start:sizes]
for h in HEADS:
    sizes = [count_parameters(design(h, k)()) for k in KS]
    print(f"{h} x {WIDTH // h:<2}  parameters for k = 1..4: {sizes}")
# --8<-- [end:sizes]
