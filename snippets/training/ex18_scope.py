"""The next page's designs over the fresh seeds: in how many each is
accurate on both lookups, at this page's settings (make seeds) and at its
own best (make tune)."""

from snippets.training.ex13_claims import TWO_HEADS_MIN_ACCURACY
from snippets.training.ex14_fresh_seeds import start, stop
from snippets.training.ex14a_interval import interval
from snippets.training.seed_results import seed_results
from snippets.width_and_depth.tuned_results import tuned_results

# --8<-- [start:page]
WHAT = {  # the designs of the next page, Heads against width and depth
    "1 x 4": "one layer, one head of width 4",
    "2 x 2": "one layer, two heads of width 2",
    "4 x 1": "one layer, four heads of width 1",
    "2 x 1": "one layer, two heads of width 1",
    "1 x 8": "one layer, one head of width 8",
    "1 layer": "one head of width 4 on a residual stream",
    "2 layers": "two such layers, one after the other",
    "2 x 2 on stream": "2 x 2 on the same stream, one layer",
}


def on_both(runs):
    """In how many seeds runs (field -> value per seed) are accurate on
    both lookups."""
    pairs = zip(runs["previous"], runs["largest key"], strict=True)
    return sum(min(p, k) >= TWO_HEADS_MIN_ACCURACY for p, k in pairs)


n = stop - start
print(f"seeds {start} to {stop - 1}: accurate on both lookups, in how many",
      "(and the 95% interval)")  # fmt: skip
print("here: at this page's settings;",
      "own best: at the design's own best settings")  # fmt: skip
print(f"{'':56} {'here':>12}  {'own best':>12}")
for name, (_, _, both) in seed_results["designs"].items():
    best = on_both(tuned_results["designs"][name])
    here, own = [f"{k:3d} ({'-'.join(map(str, interval(k, n)))})"
                 for k in (both, best)]  # fmt: skip
    print(f"{name:15} {WHAT[name]:40} {here:>12}  {own:>12}")
# --8<-- [end:page]
