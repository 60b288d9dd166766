from snippets.real_text.ex06_results import losses, statistics, sweep_results


# isort: split
# --8<-- [start:page]
def compare(d_model, a, b):
    """h = a against h = b, seed by seed: the runs of one seed share their
    starting weights and batches, so each seed gives one difference of the
    two losses. Returns the mean difference, the sd of the differences,
    the paired t (the mean over its standard error) and in how many seeds
    a ends lower."""
    la, lb = losses(d_model, a), losses(d_model, b)
    differences = [x - y for x, y in zip(la, lb, strict=True)]
    mean = statistics.mean(differences)
    sd = statistics.stdev(differences)
    t = mean / (sd / len(differences) ** 0.5)
    lower = sum(x < 0 for x in differences)
    return mean, sd, t, lower


def seeds_sd(d_model, heads):
    """The seeds' standard deviation at this width, pooled over these h."""
    variances = [statistics.variance(losses(d_model, h)) for h in heads]
    return statistics.mean(variances) ** 0.5


# Student's t with 4 degrees of freedom (five seeds): a paired t beyond this,
# either way, happens by chance in 5% of experiments (any table of t)
T_5_PERCENT = 2.776

heads = sweep_results["settings"]["width 64"]["heads"]
mean = {h: statistics.mean(losses(64, h)) for h in heads}
print(f"lowest mean loss: h = {min(mean, key=mean.get)}")
print("h = 1 against each h, seed by seed: h = 1's loss minus h's")
print("                       mean ± sd       paired t   h = 1 lower in")
for h in heads[1:]:
    difference, sd, t, lower = compare(64, 1, h)
    n = len(losses(64, h))
    print(f"  h = {h:2}, d_head = {64 // h:2}:  {difference:+.3f} ± {sd:.3f}",
          f"  {t:+6.1f}      {lower} of {n} seeds")  # fmt: skip
difference, sd, t, lower = compare(64, 2, 4)
print(f"h = 2 against h = 4: {difference:+.3f} ± {sd:.3f},",
      f"paired t {t:+.1f}, h = 2 lower in {lower} of {n} seeds")  # fmt: skip
spread = seeds_sd(64, heads)
print(f"the seeds' standard deviation at width 64, pooled: {spread:.3f} nats")
# --8<-- [end:page]
