"""Every design at its own best settings, tuned on seeds no page reports,
then trained on the fresh seeds (make tune)."""

from snippets.training.ex05_train import STEPS
from snippets.width_and_depth.ex02_width_rates import print_rates
from snippets.width_and_depth.tuned_results import tuned_results

# --8<-- [start:page]
tuning = tuned_results["tuning"]  # design -> (lr, steps) -> two medians
best = tuned_results["best"]  # design -> the (lr, steps) the rule chose
tuned = tuned_results["designs"]  # design -> field -> value per seed
rates = tuned_results["rates"]
first, end = tuned_results["tuning seeds"]

LONG = 2 * STEPS  # tried at each design's best rate
print(f"tuning seeds {first} to {end - 1}: {STEPS} steps at each rate,",
      f"then {LONG} at the best")  # fmt: skip
for k, median in enumerate(["accuracy on the worse lookup", "test MSE"]):
    print(f"the median {median}")
    print(f"{'learning rate':15}" + "".join(f"{r:>8}" for r in rates),
          f"  {LONG} steps")  # fmt: skip
    for name, medians in tuning.items():
        lr, steps = best[name]
        at = "".join(f"{medians[r, STEPS][k]:8.4f}" for r in rates)
        print(f"{name:15}{at}  {medians[lr, LONG][k]:.4f} at {lr}")
print("the rule's choice, (learning rate, steps):")
for name, (lr, steps) in best.items():
    print(f"  {name:15} ({lr}, {steps})")
print()
print("each design at its own best, on the fresh seeds")
print_rates(tuned)
# --8<-- [end:page]
