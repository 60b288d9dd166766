from snippets.real_text.ex06_results import losses, statistics, sweep_results


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


heads = sweep_results["settings"]["width 64"]["heads"]
mean = {h: statistics.mean(losses(64, h)) for h in heads}
print(f"lowest mean loss: h = {min(mean, key=mean.get)}")
print("h = 1 against each h:  gap (nats)  in pooled sd  h = 1 lower in")
for h in heads[1:]:
    gap, in_sd, lower = compare(64, 1, h)
    print(f"  h = {h:2}, d_head = {64 // h:2}:  {gap:+.3f}  {in_sd:+11.1f}",
          f"     {lower} of {len(losses(64, h))} seeds")  # fmt: skip
spread = statistics.mean(statistics.variance(losses(64, h)) for h in heads)
spread = spread**0.5  # the seeds' sd, pooled over every h at this width
print(f"the seeds' standard deviation at width 64, pooled: {spread:.3f} nats")
# --8<-- [end:page]
