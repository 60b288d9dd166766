"""The next page's designs over the fresh seeds (make seeds): in how many
each is accurate on both lookups."""

from snippets.training.ex14_fresh_seeds import start, stop
from snippets.training.seed_results import seed_results

# --8<-- [start:page]
WHAT = {  # the designs of the next page, Heads against width and depth
    "1 x 4": "one layer, one head of width 4",
    "2 x 2": "one layer, two heads of width 2",
    "4 x 1": "one layer, four heads of width 1",
    "2 x 1": "one layer, two heads of width 1",
    "1 x 8": "one layer, one head of width 8",
    "1 layer": "one head of width 4 on a residual stream",
    "2 layers": "two such layers, one after the other",
}
print(f"seeds {start} to {stop - 1}: accurate on both lookups, in how many")
for name, (_, _, both) in seed_results["designs"].items():
    print(f"{name:9} {WHAT[name]:41} {both:4d}")
# --8<-- [end:page]
