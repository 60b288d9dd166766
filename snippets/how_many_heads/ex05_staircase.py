"""The staircase: in how many seeds each (k, h) cell finds all k lookups."""

from snippets.how_many_heads.ex02_designs import HEADS, KS, WIDTH
from snippets.how_many_heads.staircase_results import staircase_results
from snippets.training.ex14a_interval import interval

# isort: split
# --8<-- [start:page]
import statistics

ACCURATE = 0.85  # on every one of the k lookups: the training page's line
cells = staircase_results["cells"]  # (k, h) -> what make staircase measured


def worst_lookup(k, h):
    """Per seed: the accuracy on the worst of the cell's k lookups."""
    lookups = [cells[k, h][f"lookup {i + 1}"] for i in range(k)]
    return [min(accuracies) for accuracies in zip(*lookups, strict=True)]


def found(k, h):
    """In how many seeds all k lookups are accurate, and of how many."""
    worst = worst_lookup(k, h)
    return sum(a >= ACCURATE for a in worst), len(worst)


def print_grid(show):
    head = "".join(f"{f'{h} x {WIDTH // h}':18}" for h in HEADS)
    print(f"k \\ h  {head}".rstrip())
    for k in KS:
        row = "".join(f"{show(k, h):18}" for h in HEADS)
        print(f"{k:5}  {row}".rstrip())


def rate(k, h):
    n_found, n = found(k, h)
    low, high = interval(n_found, n)
    return f"{n_found}/{n} ({low}-{high})"


print("seeds in which all k lookups are accurate (95% interval):")
print_grid(rate)


# --8<-- [end:page]
# --8<-- [start:spread]
def worst_spread(k, h):
    worst = worst_lookup(k, h)
    return (
        f"{statistics.median(worst):.2f} ({min(worst):.2f}-{max(worst):.2f})"
    )


print("the worst lookup's accuracy: median (lowest-highest)")
print_grid(worst_spread)


def learned(k, h):
    """How many seeds learned 0, 1, ..., k of the k lookups."""
    lookups = [cells[k, h][f"lookup {i + 1}"] for i in range(k)]
    counts = [sum(a >= ACCURATE for a in accuracies)
              for accuracies in zip(*lookups, strict=True)]  # fmt: skip
    return " ".join(str(counts.count(n)) for n in range(k + 1))


print("how many seeds learned 0, 1, ..., k of the k lookups")
print_grid(learned)
start, stop = staircase_results["tuning seeds"]
print(f"each cell's learning rate, tuned on seeds {start} to {stop - 1}:")
print_grid(lambda k, h: f"{cells[k, h]['lr']}")
# --8<-- [end:spread]
# --8<-- [start:lookups]
NEAR = 0.05  # a seed this close to the line counts as near it


def each_lookup(k, h, measure):
    """measure(accuracies over seeds) for each of the cell's k lookups."""
    return " ".join(measure(cells[k, h][f"lookup {i + 1}"]) for i in range(k))


def median(accuracies):  # 0.82 as .82, to fit four in a column
    return f"{statistics.median(accuracies):.2f}".removeprefix("0")


def near(accuracies):
    return str(sum(abs(a - ACCURATE) < NEAR for a in accuracies))


print("each lookup's median accuracy, in the order of LOOKUPS")
print_grid(lambda k, h: each_lookup(k, h, median))
print(f"seeds within {NEAR} of the line {ACCURATE}, on each lookup")
print_grid(lambda k, h: each_lookup(k, h, near))
# --8<-- [end:lookups]
