from snippets.training.ex07_run_seeds import outcomes

# --8<-- [start:page]
TWO_HEADS_MIN_ACCURACY = 0.85  # on each of the two outputs
ONE_HEAD_MAX_ACCURACY = 0.60  # averaged over the two outputs
ONE_HEAD_MIN_MSE_RATIO = 10  # its test error over the two heads'
JS_BEFORE_MAX = 0.05  # bits: the two heads start alike ...
JS_AFTER_MIN = 0.50  # bits: ... and end far apart
ROLE_MIN_ATTENTION = 0.90  # a head "asks" a question with this much


def failures(o):
    """Every claim that seed o breaks, in words (empty when all hold)."""
    broken = []
    if o.two.test_accuracy.min() < TWO_HEADS_MIN_ACCURACY:
        broken.append("two heads are not accurate on both outputs")
    if o.one.test_accuracy.mean() > ONE_HEAD_MAX_ACCURACY:
        broken.append("one head of width 4 is too accurate")
    if o.one.test_mse < ONE_HEAD_MIN_MSE_RATIO * o.two.test_mse:
        broken.append("one head's error is not clearly larger")
    if o.js_before > JS_BEFORE_MAX:
        broken.append("the heads do not start alike")
    if o.js_after < JS_AFTER_MIN:
        broken.append("the heads do not end apart")
    best = o.looks.max(dim=0)  # the best head for each place
    if (
        best.values.min() < ROLE_MIN_ATTENTION
        or best.indices.unique().numel() < 2
    ):
        broken.append("no separate head for each of the two lookups")
    return [f"seed {o.seed}: {b}" for b in broken]


broken = [b for o in outcomes for b in failures(o)]
assert not broken, broken
print(f"all {len(outcomes)} seeds meet every claim")
# --8<-- [end:page]
