"""Every design at its own best settings, tuned on seeds no page reports,
then trained on the fresh seeds (make tune)."""

from snippets.width_and_depth.ex02_width_rates import print_rates
from snippets.width_and_depth.tuned_results import tuned_results

# --8<-- [start:page]
tuning = tuned_results["tuning"]  # design -> (lr, steps) -> two medians
best = tuned_results["best"]  # design -> the (lr, steps) the rule chose
tuned = tuned_results["designs"]  # design -> field -> value per seed
rates = tuned_results["rates"]
first, end = tuned_results["tuning seeds"]
short, long = tuned_results["steps"]  # at every rate, then at the best

print(f"tuning seeds {first} to {end - 1}: {short} steps at each rate,",
      f"then {long} at the best")  # fmt: skip
for k, median in enumerate(["accuracy on the worse lookup", "test MSE"]):
    print(f"the median {median}")
    print(f"{'learning rate':15}" + "".join(f"{r:>8}" for r in rates),
          f"  {long} steps")  # fmt: skip
    for name, medians in tuning.items():
        lr = best[name][0]  # the longer run's rate: the best at `short`
        at = "".join(f"{medians[r, short][k]:8.4f}" for r in rates)
        print(f"{name:15}{at}  {medians[lr, long][k]:.4f} at {lr}")
print("the rule's choice, (learning rate, steps):")
for name, (lr, steps) in best.items():
    print(f"  {name:15} ({lr}, {steps})")
print()
print("each design at its own best, on the fresh seeds")
print_rates(tuned)
# --8<-- [end:page]
