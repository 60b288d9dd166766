from snippets.real_text.ex06_results import losses, table
from snippets.real_text.ex09_gap import compare, seeds_sd

# isort: split
# --8<-- [start:page]
table(128)
difference, sd, t, lower = compare(128, 1, 2)
print(f"h = 1 against h = 2, seed by seed: {difference:+.3f} ± {sd:.3f}",
      f"nats, paired t {t:+.1f}")  # fmt: skip
print(f"h = 1 lower in {lower} of {len(losses(128, 1))} seeds")
print(f"the seeds' standard deviation at width 128, pooled: "
      f"{seeds_sd(128, (1, 2)):.3f} nats")  # fmt: skip
# --8<-- [end:page]
