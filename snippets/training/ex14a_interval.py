"""How sure a count over the fresh seeds is: its 95% interval."""

# --8<-- [start:page]
import math


def interval(k, n, z=1.96):
    """The 95% interval of a rate seen in k of n seeds (Wilson's score
    interval, 1927), as whole counts out of n."""
    p, spread = k / n, z * z / n
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / n + spread / (4 * n)) / (1 + spread)
    return round(n * (centre - half)), round(n * (centre + half))


# --8<-- [end:page]
# --8<-- [start:examples]
for k in (0, 50, 86, 95, 100):
    low, high = interval(k, 100)
    print(f"{k:3d} of 100: {low} to {high}")
# --8<-- [end:examples]
