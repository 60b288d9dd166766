from snippets.real_text.ex06_results import losses, table
from snippets.real_text.ex09_gap import compare

# isort: split
# --8<-- [start:page]
table(128)
gap, in_sd, lower = compare(128, 1, 2)
print(f"h = 1 against h = 2: {gap:+.3f} nats, {in_sd:+.1f} pooled sd;",
      f"h = 1 lower in {lower} of {len(losses(128, 1))} seeds")  # fmt: skip
# --8<-- [end:page]
