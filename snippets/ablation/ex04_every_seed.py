"""Every seed: removing a head breaks its own lookup and keeps the other."""

from snippets.ablation.ex01_two_heads import models
from snippets.ablation.ex03_toy_table import LOOKUPS, lookup_accuracy, roles

# --8<-- [start:page]
WORKS_ABOVE = 0.85  # with both heads, each lookup is this accurate ...
BROKEN_BELOW = 0.2  # ... without its head, down to about guessing ...
KEPT_WITHIN = 0.01  # ... while the other lookup stays as accurate
NOT_MEASURED = (float("nan"), float("nan"))


def crossing(model, mean=False):
    """Accuracy without each lookup's head (zeroed, or set to its mean),
    and whether the pattern holds: one head per lookup; removing it breaks
    that lookup and keeps the other."""
    whole, heads = lookup_accuracy(model), roles(model)
    if sorted(heads) != sorted(LOOKUPS):  # both heads on the same lookup
        return {}, False
    without = {
        role: lookup_accuracy(model, [heads.index(role)], mean)
        for role in LOOKUPS
    }
    holds = bool(whole.min() > WORKS_ABOVE) and all(
        without[role][own] < BROKEN_BELOW
        and whole[1 - own] - without[role][1 - own] <= KEPT_WITHIN
        for own, role in enumerate(LOOKUPS)
    )
    return without, holds


print("      without the previous-token head | without the largest-key head")
print("seed      previous  largest key       |     previous  largest key")
zeroed, to_mean = [], []
for seed, toy in models.items():
    without, holds = crossing(toy)
    p1, l1 = without.get("previous-token", NOT_MEASURED)
    p2, l2 = without.get("largest-key", NOT_MEASURED)
    print(f"{seed:4d}  {p1:12.2f} {l1:12.2f}       | {p2:12.2f} {l2:12.2f}")
    zeroed.append(holds)
    to_mean.append(crossing(toy, mean=True)[1])
print(f"the crossing pattern holds in {sum(zeroed)} of {len(zeroed)} seeds",
      f"with the head zeroed, in {sum(to_mean)} with its mean")  # fmt: skip
assert all(to_mean), f"with the mean, the pattern fails in some: {to_mean}"
# --8<-- [end:page]
