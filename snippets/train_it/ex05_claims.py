"""The training page's measures and claims, for every design."""

from snippets.train_it.ex01_stream import WIDTH, make_batch, random, torch
from snippets.training.ex03_model import Attention
from snippets.training.ex05_train import N_TEST
from snippets.training.ex06_measures import js_divergence, where_heads_look

# isort: split
# --8<-- [start:page]
import itertools

# the thresholds of the training page's claims
TWO_HEADS_MIN_ACCURACY = 0.85  # on each of the two outputs
ONE_HEAD_MAX_ACCURACY = 0.60  # averaged over the two outputs
ONE_HEAD_MIN_MSE_RATIO = 10  # its test error over the two heads'
JS_BEFORE_MAX = 0.05  # bits: the heads start alike ...
JS_AFTER_MIN = 0.50  # bits: ... and end far apart
ROLE_MIN_ATTENTION = 0.90  # a head "asks" a question with this much
TOL = 0.1  # a prediction this close to its target is accurate
TEST_SEED = 10_000  # the held-out sequences' seed, the training page's

x_test, y_test = make_batch(N_TEST, random.Random(TEST_SEED))  # held out


def measure(W, n_heads, x=x_test, y=y_test):
    """What the claims read, from the training page's model with weights W:
    accurate predictions on each lookup (counts), the test error, where
    each head looks, and how far apart every two heads' rows are
    (Jensen-Shannon, in bits, averaged over the rows)."""
    model = Attention(n_heads, WIDTH // n_heads).double()
    model.load_state_dict(W)
    with torch.no_grad():
        out, a = model(x)  # (n, T, 2), (n, h, T, T)
    pairs = itertools.combinations(range(n_heads), 2)
    return {
        "heads": n_heads,
        "correct": ((out - y).abs() < TOL).sum(dim=(0, 1)).tolist(),
        "total": y.shape[0] * y.shape[1],
        "mse": ((out - y) ** 2).mean().item(),
        "looks": where_heads_look(a, x).tolist(),  # (h, 2)
        "divergence": [
            js_divergence(a[:, g], a[:, h]).mean().item() for g, h in pairs
        ],  # fmt: skip
    }


def broken(after, before, two_heads_mse=None):
    """The claims that one design's run breaks (after and before: its
    measures after training and before). h heads: the training page's
    claims about two heads, for every two of them. One head: those about
    one head, its error against two heads of width 2 (two_heads_mse)."""
    accuracy = [c / after["total"] for c in after["correct"]]
    if after["heads"] == 1:
        found = []
        if sum(accuracy) / 2 > ONE_HEAD_MAX_ACCURACY:
            found.append("too accurate")
        ratio = after["mse"] / two_heads_mse if two_heads_mse else None
        if ratio is not None and ratio < ONE_HEAD_MIN_MSE_RATIO:
            found.append("error not clearly larger")
        return found
    found = []
    if min(accuracy) < TWO_HEADS_MIN_ACCURACY:
        found.append("not accurate on both lookups")
    if max(before["divergence"]) > JS_BEFORE_MAX:
        found.append("heads do not start alike")
    if max(after["divergence"]) < JS_AFTER_MIN:
        found.append("heads do not end apart")
    looks = torch.tensor(after["looks"])  # (h, 2 places)
    best = looks.max(dim=0)  # the best head for each place
    weakest, heads = best.values.min(), best.indices.unique().numel()
    if weakest < ROLE_MIN_ATTENTION or heads < 2:
        found.append("no separate head for each lookup")
    return found


# --8<-- [end:page]
