from snippets.real_text.ex06_results import losses, statistics


# isort: split
# --8<-- [start:page]
def compare(d_model, a, b):
    """h = a against h = b: the gap between their mean losses, the gap in
    units of the seeds' spread (the pooled sd of the two), and in how many
    seeds a is lower (seed by seed they share start and batches)."""
    la, lb = losses(d_model, a), losses(d_model, b)
    gap = statistics.mean(la) - statistics.mean(lb)
    pooled = ((statistics.variance(la) + statistics.variance(lb)) / 2) ** 0.5
    lower = sum(x < y for x, y in zip(la, lb, strict=True))
    return gap, gap / pooled, lower


heads = [1, 2, 4, 8, 16]
mean = {h: statistics.mean(losses(64, h)) for h in heads}
best = min(mean, key=mean.get)
rival = min(heads[1:], key=mean.get)  # the best of the other h
gap, in_sd, lower = compare(64, 1, rival)
print(f"lowest mean loss: h = {best}")
print(f"h = 1 against h = {rival}: {gap:+.3f} nats, {in_sd:+.1f} pooled sd;",
      f"h = 1 lower in {lower} of {len(losses(64, 1))} seeds")  # fmt: skip
# --8<-- [end:page]
