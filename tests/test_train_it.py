"""docs/train-it.md: the Python twin of the live trainer (forward and backward
pass, Adam and schedule, by hand) against autograd and torch.optim; the records
`make twin` wrote are fresh and are what the code does; the page's settings are
the snippets'. The browser's side: tests/browser/test_train_it.py."""

from __future__ import annotations

import functools
import inspect
import json
import math
import random
import re
import textwrap

import pytest
import torch

from hooks.trainer import THRESHOLDS
from snippets.training.ex14a_interval import interval
from tests.pages import lazy, on_page
from tools.pages import ROOT
from tools.spread_rule import MULTIPLE, STRICT, from_f64, running_spread, tolerance

PAGE = "train-it.md"
stream = on_page(PAGE, "snippets.train_it.ex01_stream")
hand = on_page(PAGE, "snippets.train_it.ex02_backward")
train = on_page(PAGE, "snippets.train_it.ex03_train")
pytorch = on_page(PAGE, "snippets.train_it.ex04_pytorch")
claims = on_page(PAGE, "snippets.train_it.ex05_claims")
results = on_page(PAGE, "snippets.train_it.twin_results")
twin = lazy("experiments.train_it_twin")
cells = on_page(PAGE, "snippets.train_it.ex08_lookups")
cell_run = on_page(PAGE, "snippets.train_it.ex09_lookups_rates")
cell_results = on_page(PAGE, "snippets.train_it.lookups_results")
cell_twin = lazy("experiments.train_it_lookups")
staircase = lazy("snippets.how_many_heads.ex02_designs")
nudge_spread = lazy("experiments.nudge_spread")
depth = lazy("experiments.train_it_depth")
own_best = on_page(PAGE, "snippets.train_it.tuned_results")
own_twin = lazy("experiments.train_it_tuned")
fair_fight = lazy("snippets.width_and_depth.tuned_results")  # make tune's
# the training page's thresholds and failures(): its module reads that page's saved
# runs (tests/pages.py, `lazy`: another page's module)
training_claims = lazy("snippets.training.ex13_claims")

DESIGNS = {"2x2": (2, 2), "1x4": (1, 4), "4x1": (4, 1)}


# -- the stream: Python's random, nn.Linear's initialisation, the page's task -------


def test_the_weights_are_attentions_and_drawn_as_nn_linear_draws_them():
    from snippets.training.ex03_model import Attention

    for n_heads, d_head in DESIGNS.values():
        model = Attention(n_heads, d_head)
        mine = stream.initial_weights(seed=n_heads)
        assert list(mine) == list(model.state_dict())
        for name, w in model.state_dict().items():
            assert mine[name].shape == w.shape and mine[name].dtype == torch.float64
            fan_in = model.get_submodule(name.split(".")[0]).in_features
            bound = 1 / math.sqrt(fan_in)  # kaiming_uniform_(a=sqrt(5)), and the bias
            assert mine[name].abs().max() < bound
    # uniform in (-bound, bound), from random.random(), in order
    rng = random.Random(7)
    first = [(2 * rng.random() - 1) * (1 / math.sqrt(8)) for _ in range(32)]
    assert stream.initial_weights(7)["W_query.weight"].flatten().tolist() == first


def test_the_batches_are_the_training_pages_task():
    x, y = stream.make_batch(64, random.Random(3))
    v, k, place = x[..., 0], x[..., 1], x[..., 2:]
    assert torch.equal(place, torch.eye(6, dtype=torch.float64).expand(64, 6, 6))
    assert torch.equal(y[..., 0], v.roll(1, dims=1))
    top = k.argmax(dim=1)
    assert torch.equal(y[..., 1], v[torch.arange(64), top][:, None].expand(64, 6))
    assert v.min() >= -1 and v.max() < 1 and k.min() >= 0 and k.max() < 1


# -- the backward pass by hand, against autograd -------------------------------------


def relative_gaps(mine: dict, theirs: dict) -> list[float]:
    """How far each hand-written gradient is from autograd's, relative to the
    largest gradient of its tensor (the key bias against the key weights')."""
    assert mine.keys() == theirs.keys()
    gaps = []
    for name, g in theirs.items():
        scale = theirs[name.replace("bias", "weight")].abs().max()
        gaps.append(((mine[name] - g).abs().max() / scale).item())
    return gaps


def gradient_gaps(backward) -> list[float]:
    """relative_gaps of the hand-written pass (with `backward`), for random
    weights and batches of every design."""
    gaps = []
    for seed, (n_heads, d_head) in enumerate(list(DESIGNS.values()) * 3):
        W = stream.initial_weights(seed)
        x, y = stream.make_batch(32, random.Random(100 + seed))
        out, saved = hand.forward(W, x, n_heads)
        mine = backward(W, saved, 2 * (out - y) / out.numel())
        gaps += relative_gaps(mine, hand.autograd_grads(W, x, y, n_heads, d_head))
    return gaps


def test_the_backward_pass_is_autograds():
    assert max(gradient_gaps(hand.backward)) < 1e-13


# the absolute difference the page's gradient check allows besides its relative one
ATOL = float(
    re.search(
        r"atol=([\d.e-]+)\)",
        (ROOT / "snippets/train_it/ex02_backward.py").read_text(encoding="utf-8"),
    )[1]
)


def test_the_key_bias_has_no_gradient():
    """What the page says about it: autograd's is rounding noise, below the
    absolute difference the check allows (where the hand-written one is 0)."""
    for n_heads, d_head in DESIGNS.values():
        W = stream.initial_weights(0)
        x, y = stream.make_batch(256, random.Random(1))
        g = hand.autograd_grads(W, x, y, n_heads, d_head)
        assert g["W_key.bias"].abs().max() < 1e-12 * g["W_key.weight"].abs().max()
        assert g["W_key.bias"].abs().max() < ATOL


PLANTED = [  # one term of the backward pass off by 1%
    ("(a * grad_a).sum(-1, keepdim=True)", "1.01 * (a * grad_a).sum(-1, keepdim=True)"),
    ("grad_context @ v.transpose(-2, -1)", "1.01 * grad_context @ v.transpose(-2, -1)"),
    ('"W_o.bias": grad_out.sum((0, 1))', '"W_o.bias": 1.01 * grad_out.sum((0, 1))'),
]


@pytest.mark.parametrize("code, planted", PLANTED)
def test_a_term_off_by_one_percent_fails_the_autograd_check(code, planted):
    source = textwrap.dedent(inspect.getsource(hand.backward))
    assert source.count(code) == 1, code
    namespace = dict(vars(hand.imported()))
    exec(source.replace(code, planted), namespace)  # noqa: S102
    assert max(gradient_gaps(namespace["backward"])) > 1e-3


# -- depth: one head per layer, by hand, against autograd --------------------------


def depth_gradient_gaps(backward) -> list[float]:
    """gradient_gaps for OneHeadPerLayer, one and two layers, by hand."""
    gaps = []
    for seed, n_layers in enumerate([1, 2] * 2):
        W = depth.initial_weights(n_layers, seed)
        x, y = stream.make_batch(16, random.Random(200 + seed))
        out, saved = depth.forward(W, x, n_layers)
        mine = backward(W, saved, 2 * (out - y) / out.numel(), n_layers)
        theirs = depth.autograd_grads(W, x, y, n_layers)
        assert list(mine) == list(theirs)
        gaps += relative_gaps(mine, theirs)
    return gaps


def test_the_depth_model_by_hand_is_one_head_per_layer_and_autograds():
    from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer

    for n_layers in depth.DESIGNS.values():
        model = OneHeadPerLayer(n_layers).double()
        W = depth.initial_weights(n_layers, seed=n_layers)
        assert [(n, w.shape) for n, w in W.items()] == [
            (n, w.shape) for n, w in model.state_dict().items()
        ]
        model.load_state_dict(W)
        x, _ = stream.make_batch(16, random.Random(n_layers))
        out = depth.forward(W, x, n_layers)[0]
        assert torch.allclose(out, model(x)[0], rtol=1e-13, atol=1e-15)
    assert max(depth_gradient_gaps(depth.backward)) < 1e-13


@pytest.mark.parametrize(
    "code, planted",
    [
        ("return grad_y @ W[f", "return 1.01 * grad_y @ W[f"),
        ("grad_scores @ k  #", "1.01 * grad_scores @ k  #"),
    ],
)
def test_a_depth_term_off_by_one_percent_fails_the_autograd_check(code, planted):
    namespace = dict(vars(depth.lazy_module()))
    for function in ("backward", "linear_back"):
        source = textwrap.dedent(inspect.getsource(namespace[function]))
        exec(source.replace(code, planted), namespace)  # noqa: S102
    assert max(depth_gradient_gaps(namespace["backward"])) > 1e-3


def records(bench) -> dict:
    """What `make twin` (bench: twin) or `make twin-depth` (depth) wrote."""
    return json.loads(bench.STEPS_FILE.read_text(encoding="utf-8"))


def pytorch_spread(entry: dict) -> float:
    """How far PyTorch's own nudged run of a record drifts: its largest relative
    gap in the loss, over every step."""
    return max([gap for _, gap in entry["spread"]], default=0)


def check_step_records(bench, make: str) -> None:
    """The records of `make <make>` are for this code, one run for each seed
    checked step for step (the first seeds: nobody picked them)."""
    steps = records(bench)
    assert steps["code"] == bench.code_key(), (
        f"{bench.STEPS_FILE.name} is stale: the code it measures changed since "
        f"`make {make}` wrote it. Run `make {make}` (minutes)."
    )
    assert set(steps["runs"]) == {
        f"{d}/{s}" for d, seeds in bench.STEP_SEEDS.items() for s in seeds
    }
    for seeds in bench.STEP_SEEDS.values():
        assert seeds.start == 0 and len(seeds) >= 10


def check_twin_within_spread(bench) -> None:
    """Every loss and weight of the twin within 1e-9 of PyTorch's, or within ten
    times PyTorch's own spread (tools/spread_rule.py)."""
    for key, entry in records(bench)["runs"].items():
        assert entry["twin"]["loss"] <= tolerance(pytorch_spread(entry)), key
        for name, gap in entry["twin"]["weights"].items():
            assert gap <= tolerance(entry["weight spread"][name]), (key, name)
            if name.endswith("W_key.bias"):  # neither trains it
                assert gap == 0, key


@functools.cache
def depth_outcomes() -> dict[str, list[dict]]:
    """What PyTorch's runs of the depth designs (make twin-depth) come to, seed by
    seed, on the held-out sequences: accuracy on each lookup, where each layer's
    head looks (previous, largest key, just after it), and the accuracy with
    layer 1's head switched off (its write zeroed, or set to its mean)."""
    from snippets.width_and_depth.ex04_one_head_per_layer import OneHeadPerLayer

    steps = records(depth)["runs"]
    found = {design: [] for design in depth.DESIGNS}
    for design, layers in depth.DESIGNS.items():
        for seed in depth.STEP_SEEDS[design]:
            entry = steps[f"{design}/{seed}"]
            flat = torch.tensor(from_f64(entry["weights"]), dtype=torch.float64)
            shapes = entry["names"]
            parts = flat.split([math.prod(shape) for shape in shapes.values()])
            weights = {n: p.view(shapes[n]) for n, p in zip(shapes, parts, strict=True)}
            model = OneHeadPerLayer(layers).double()
            model.load_state_dict(weights)
            measured = depth.measures(model)
            looks = measured["looks"]
            off = ["on"] * (layers - 1)  # the layers after the first stay on
            outcome = {
                "accuracy": accuracy(measured),
                "looks": [looks[i : i + 3] for i in range(0, len(looks), 3)],
                "layer 1 off": {
                    how: accuracy(depth.measures(model, [how, *off]))
                    for how in ["zero", "mean"]
                },
            }
            found[design].append(outcome)
    return found


def accuracy(measured: dict) -> list[float]:
    """Held-out accuracy on each lookup, from depth.measures' counts."""
    return [c / measured["total"] for c in measured["correct"]]


def test_the_depth_records_are_for_this_code():
    assert list(depth.STEP_SEEDS) == list(depth.DESIGNS)
    check_step_records(depth, "twin-depth")
    check_twin_within_spread(depth)


# -- Adam and the schedule by hand, against torch.optim ---------------------------


def test_adam_and_the_schedule_are_torch_optims():
    torch.manual_seed(0)
    start = {
        "a": torch.randn(5, 3, dtype=torch.float64),
        "b": torch.randn(4, dtype=torch.float64),
    }
    params = {n: torch.nn.Parameter(w.clone()) for n, w in start.items()}
    optimizer = torch.optim.Adam(params.values(), lr=train.LR)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, train.STEPS)
    W = {n: w.clone() for n, w in start.items()}
    m = {n: torch.zeros_like(w) for n, w in W.items()}
    v = {n: torch.zeros_like(w) for n, w in W.items()}
    for step in range(1, train.STEPS + 1):
        grads = {n: torch.randn_like(w) * 10.0 ** (step % 5 - 3) for n, w in W.items()}
        for n, p in params.items():
            p.grad = grads[n].clone()
        optimizer.step()
        schedule.step()
        train.adam(W, grads, m, v, step)
        if step in (1, 2, 400, train.STEPS):
            for n, p in params.items():
                torch.testing.assert_close(W[n], p.detach(), rtol=1e-12, atol=1e-15)
    last = train.learning_rate(train.STEPS)
    assert train.learning_rate(0) == train.LR and last < 1e-17
    assert schedule.get_last_lr()[0] == pytest.approx(last, abs=1e-17)


def test_the_settings_are_the_training_pages():
    from snippets.training import ex05_train

    for name in ("STEPS", "BATCH", "LR"):
        assert getattr(train, name) == getattr(ex05_train, name), name
    assert claims.x_test.shape[0] == ex05_train.N_TEST
    defaults = torch.optim.Adam([torch.zeros(1)]).defaults
    assert (train.BETAS, train.EPS) == (defaults["betas"], defaults["eps"])


# -- the claims, for every design ---------------------------------------------------

NAMES = {  # the training page's words for each claim -> this page's
    "two heads are not accurate on both outputs": "not accurate on both lookups",
    "one head of width 4 is too accurate": "too accurate",
    "one head's error is not clearly larger": "error not clearly larger",
    "the heads do not start alike": "heads do not start alike",
    "the heads do not end apart": "heads do not end apart",
    "no separate head for each of the two lookups": "no separate head for each lookup",
}


def test_the_thresholds_are_the_training_pages():
    for name in THRESHOLDS:
        assert getattr(claims, name) == getattr(training_claims, name), name


def random_measures(rng: random.Random, heads: int) -> dict:
    near = [0.0, 0.05, 0.5, 0.6, 0.85, 0.9, 1.0]  # the thresholds, and around

    def pick():
        return rng.choice([rng.random(), rng.choice(near) + rng.uniform(-0.01, 0.01)])

    total = 24576
    return {
        "heads": heads,
        "correct": [int(total * min(1, max(0, pick()))) for _ in range(2)],
        "total": total,
        "mse": rng.uniform(1e-4, 0.3),
        "looks": [[pick(), pick()] for _ in range(heads)],
        "divergence": [pick() for _ in range(heads * (heads - 1) // 2)],
    }


def test_for_two_heads_and_one_the_claims_are_the_training_pages():
    """broken() of this page against failures() of the training page, on
    measures drawn at random around every threshold."""
    from types import SimpleNamespace as NS

    def run(m: dict) -> NS:  # the training page's record of a trained model
        return NS(
            test_accuracy=torch.tensor(m["correct"]) / m["total"], test_mse=m["mse"]
        )

    failures = training_claims.failures
    rng = random.Random(29)
    for seed in range(2000):
        two, before, one = (random_measures(rng, h) for h in (2, 2, 1))
        outcome = NS(
            seed=seed,
            two=run(two),
            one=run(one),
            js_before=before["divergence"][0],
            js_after=two["divergence"][0],
            looks=torch.tensor(two["looks"]),
        )
        theirs = [NAMES[b.removeprefix(f"seed {seed}: ")] for b in failures(outcome)]
        mine = claims.broken(two, before) + claims.broken(one, None, two["mse"])
        assert sorted(mine) == sorted(theirs), (seed, two, one)


# -- the records of `make twin` --------------------------------------------------------


def test_the_records_are_for_this_code():
    assert results.twin_results["code"] == twin.code_key(), (
        f"{twin.RESULTS.name} is stale: the trainer's Python twin, the training "
        "page's model or the claims changed since `make twin` wrote it. Run "
        "`make twin` (minutes)."
    )
    assert results.twin_results["seeds"] == (twin.SEEDS.start, twin.SEEDS.stop)
    assert len(twin.SEEDS) == 100
    assert list(twin.STEP_SEEDS) == list(DESIGNS)
    check_step_records(twin, "twin")
    for design in DESIGNS:
        assert list(results.twin_results["correct"][design]) == list(twin.SEEDS)
        for seeds in results.twin_results["broken"][design].values():
            assert set(seeds) <= set(twin.SEEDS)


def test_the_pages_runs_are_trained_once_then_loaded(tmp_path, monkeypatch):
    """ex04_pytorch.saved: a run is trained and saved the first time, loaded
    after (a key per function and arguments)."""
    module = pytorch.imported()
    monkeypatch.setattr(module, "CACHE", tmp_path)
    calls = []

    def run(seed):
        calls.append(seed)
        return {"seed": torch.tensor([seed], dtype=torch.float64)}

    cached = module.saved(run)
    first, again, other = cached(3), cached(3), cached(seed=4)
    assert calls == [3, 4] and torch.equal(first["seed"], again["seed"])
    assert other["seed"].item() == 4
    assert len(list(tmp_path.glob("demo-*.pt"))) == 2


def test_a_run_trained_again_gives_its_records():
    """Two heads of width 2, the last seed checked step for step, trained again
    by PyTorch: its loss at every step and its final weights are those
    `make twin` wrote, by the rule the live trainer is held to (another CPU's
    kernels may round otherwise: nudge_spread.twin_gaps); and so are its
    measures and verdict."""
    seed = nudge_spread.TWIN_SEED
    weights, losses = pytorch.fresh_train_pytorch(2, 2, seed)
    flat = torch.cat([w.flatten() for w in weights.values()])
    found = {"losses": twin.f64(losses), "weights": twin.f64(flat)}
    assert nudge_spread.compare(("twin", seed), found) == []
    after = claims.measure(weights, 2)
    before = claims.measure(stream.initial_weights(seed), 2)
    record = twin.as_record(after, claims.broken(after, before))
    assert record["correct"] == results.twin_results["correct"]["2x2"][seed]
    broken = results.twin_results["broken"]["2x2"]
    assert record["broken"] == [c for c, seeds in broken.items() if seed in seeds]


def test_the_twin_agrees_with_pytorch_at_every_step():
    """make twin trained STEP_SEEDS by hand too."""
    check_twin_within_spread(twin)


# -- each design at its own best, and `make twin-tuned` -------------------------------


def test_the_own_best_records_are_for_this_code_and_make_tunes_settings():
    records = own_best.tuned_results
    assert records["code"] == own_twin.code_key(), (
        f"{own_twin.RESULTS.name} is stale: the code it measures, or make tune's "
        "choice, changed since `make twin-tuned` wrote it. Run `make twin-tuned` "
        "(about half an hour on two cores)."
    )
    best = fair_fight.tuned_results["best"]
    assert records["settings"] == {d: best[n] for d, n in own_twin.NAMES.items()}
    assert set(own_twin.NAMES) == set(DESIGNS) | {"1L", "2L"}
    assert records["seeds"] == (twin.SEEDS.start, twin.SEEDS.stop)
    for design in DESIGNS:
        assert list(records["correct"][design]) == list(twin.SEEDS)
        for seeds in records["broken"][design].values():
            assert set(seeds) <= set(twin.SEEDS)
    steps = json.loads(own_twin.STEPS_FILE.read_text(encoding="utf-8"))
    assert steps["code"] == records["code"]
    assert set(steps["runs"]) == {
        f"{d}/{s}" for d in own_twin.NAMES for s in own_twin.STEP_SEEDS
    }


def test_the_own_best_twin_trains_as_the_pages_twins_do():
    """make twin-tuned's training, at the page's learning rate, is the PyTorch
    twin's on this page (bit for bit, over a short schedule), and depth's."""
    steps = 40
    mine = own_twin.train(own_twin.model_of("2x2", 3), 3, train.LR, steps)
    theirs = pytorch.fresh_train_pytorch(2, 2, 3, steps=steps)
    assert mine[1] == theirs[1]
    assert all(torch.equal(mine[0][n], w) for n, w in theirs[0].items())
    mine = own_twin.train(own_twin.model_of("2L", 3), 3, train.LR, steps)
    theirs = depth.train_pytorch(2, 3, steps=steps)
    assert mine[1] == theirs[1]


# -- how-many-heads' cells: k lookups against h heads, and `make twin-lookups` -------


def test_the_cells_are_how_many_heads_designs_and_tasks():
    """At how-many-heads' width, every split of it starts from the same numbers,
    drawn as nn.Linear draws them; with two lookups the batches are make_batch's,
    number for number, and the others are the lookups how-many-heads names."""
    assert cells.CELL_WIDTH == staircase.WIDTH  # the cells are that page's
    for k in staircase.KS:
        start = cells.lookups_weights(5, k)
        for h in staircase.HEADS:
            model = cells.cell_model(k, h)
            model.load_state_dict(start)  # the same shapes, strict
            reference = staircase.design(h, k)()
            assert [p.shape for p in model.parameters()] == [
                p.shape for p in reference.parameters()
            ]
    rng, width = random.Random(5), cells.CELL_WIDTH  # in order, from random()
    first = [(2 * rng.random() - 1) * (1 / math.sqrt(8)) for _ in range(width * 8)]
    assert start["W_query.weight"].flatten().tolist() == first
    assert start["W_o.weight"].abs().max() < 1 / math.sqrt(width)
    x, y = cells.lookups_batch(64, random.Random(3), 2)
    a, b = stream.make_batch(64, random.Random(3))
    assert torch.equal(x, a) and torch.equal(y, b)
    x, y = cells.lookups_batch(64, random.Random(4), 4)
    v, key = x[..., 0], x[..., 1]
    assert torch.equal(
        y[..., 2], v.gather(1, key.argmin(1, keepdim=True)).expand(64, 6)
    )
    assert torch.equal(y[..., 3], v.roll(2, dims=1))


def test_the_cell_records_are_for_this_code():
    steps = records(cell_twin)
    for made, name in [(cell_results.lookups_results, "lookups_results.py"),
                       (steps, cell_twin.STEPS_FILE.name)]:  # fmt: skip
        assert made["code"] == cell_twin.code_key(), (
            f"{name} is stale: the cells' code, the staircase's learning rates or "
            "torch changed since `make twin-lookups` wrote it. Run "
            "`make twin-lookups` (about 30 minutes)."
        )
    grid = {(k, h) for k in staircase.KS for h in staircase.HEADS}
    assert set(cell_results.lookups_results["cells"]) == grid
    assert set(steps["runs"]) == {
        f"k{k}h{h}/{s}" for k, h in grid for s in cell_twin.STEP_SEEDS
    }
    for (k, _), cell in cell_results.lookups_results["cells"].items():
        assert list(cell["correct"]) == list(cell_twin.SEEDS)
        assert all(len(c) == k for c in cell["correct"].values())


def test_the_pages_cell_run_is_pytorchs_record():
    """The page's run of three lookups and three heads, seed 0, against what
    make twin-lookups recorded of it alone: every loss within 1e-9, relative, or
    ten times the spread a one-ulp nudge of its start made up to that step; every
    final weight likewise (tools/spread_rule.py); the held-out counts the same."""
    entry = records(cell_twin)["runs"]["k3h3/0"]
    theirs = from_f64(entry["losses"])
    spread = running_spread(entry["spread"], len(theirs))
    gaps = [abs(a / b - 1) for a, b in zip(cell_run.losses, theirs, strict=True)]
    assert all(g <= tolerance(s) for g, s in zip(gaps, spread, strict=True))
    flat = torch.cat([w.flatten() for w in cell_run.model.state_dict().values()])
    recorded = torch.tensor(from_f64(entry["weights"]), dtype=torch.float64)
    assert (flat - recorded).abs().max() <= tolerance(
        max(entry["weight spread"].values())
    )
    counts = cell_results.lookups_results["cells"][3, 3]["correct"][0]
    assert tuple(cells.accurate(cell_run.model, 3)) == counts


# -- what the page says ---------------------------------------------------------------


def test_a_head_of_width_1_can_favour_only_the_largest_or_smallest_key():
    """What the page says of four heads of width 1: with a single number for a
    query and a key, every row's favourite position is the position with the
    largest key or the one with the smallest."""
    gen = torch.Generator().manual_seed(29)
    for _ in range(1000):
        q, k = torch.randn(6, generator=gen), torch.randn(6, generator=gen)
        favourite = (q[:, None] * k[None, :]).softmax(-1).argmax(-1)  # (T,)
        assert set(favourite.tolist()) <= {k.argmax().item(), k.argmin().item()}


def seed_numbers() -> dict:
    """ "A hundred seeds" and "A hundred seeds in PyTorch": how often each design
    meets the claims here, and on the training page."""
    from experiments import fresh_seeds
    from snippets.training.seed_results import seed_results

    twin_ = results.twin_results
    both_least = claims.TWO_HEADS_MIN_ACCURACY  # on each lookup
    ours = {}  # design -> the seeds meeting every claim, accurate on both, failing
    for design, correct in twin_["correct"].items():
        failing = sorted(set().union(*twin_["broken"][design].values()))
        ours[design] = {
            "meets": len(correct) - len(failing),
            "both": sum(
                min(c) / twin_["total"] >= both_least for c in correct.values()
            ),
            "failing": failing,
        }
    two, one, four = ours["2x2"], ours["1x4"], ours["4x1"]
    start, stop = twin_["seeds"]
    n = stop - start
    (failing,) = two["failing"]  # one seed: the page names it
    previous = twin_["correct"]["2x2"][failing][0] / twin_["total"]
    assert four["meets"] == 0  # "in none of the seeds"
    no_head = twin_["broken"]["4x1"]["no separate head for each lookup"]
    assert no_head == list(range(start, stop))  # "always for the same reason"
    assert one["both"] == 0  # "never accurate on both lookups"
    # the training page's float32 runs: the same counts
    theirs = fresh_seeds.records(seed_results, "runs").values()
    their_meets = sum(not r["broken"] for r in theirs)
    their_wide = sum(min(r["one head"]) >= both_least for r in theirs)
    their_one = sum(not r["broken, one head"] for r in theirs)
    ours_too = (two["meets"], one["both"], one["meets"])
    assert (their_meets, their_wide, their_one) == ours_too
    low, high = seed_results["seeds"]
    their_four = seed_results["designs"]["4 x 1"][2]  # accurate on both
    rate = (their_four + four["both"]) / (2 * n)
    chance = (2 * n * rate * (1 - rate)) ** 0.5  # sd of a difference of counts
    return {
        "the spread of a count": (
            "{} of 100 is consistent with a true rate of {} to {} in 100, and {} with "
            "one of {}\nto {}".format(
                two["meets"],
                *interval(two["meets"], n),
                four["both"],
                *interval(four["both"], n),
            )
        ),
        "intro": f"claims in {two['meets']} of the {n} seeds counted below, and one "
        f"head is accurate on both lookups in {['none'][one['both']]}",
        "a row in six": f"puts about {1 / 6:.2f} on the largest",
        "the seeds after the first": f"the {n - 1} after it",
        "the twin's seeds": [
            f"these are seeds {start} to {stop - 1}, and",
            f"trains seeds {start} to {stop - 1} in PyTorch",
        ],
        "two heads meet": f"meet every claim in {two['meets']} of the {n} seeds",
        "the failing seed": f"In seed {failing} they break",
        "its previous-value accuracy": f"in only {previous:.2f} of the outputs",
        "one head's claims": f"holds in all {one['meets']}",
        "four heads, both lookups": f"right in {four['both']} of the",
        "the training page's seeds": f"own {len(theirs)} seeds",
        "their seeds": f"are {low} to {high - 1}, trained",
        "these seeds": f"these are {start} to {stop - 1}, in",
        "there and here": [
            f"in {their_meets} seeds there and in {two['meets']} here",
            f"in {their_wide} there and {one['both']} here",
            f"in {their_one} and in {one['meets']}",
        ],
        "four heads there": f"in {their_four} of the training page's",
        "four heads here": f"and in {four['both']} here, a",
        "chance": f"about {chance:.0f} seeds",
    }


def depth_numbers() -> dict:
    """ "One head per layer": what PyTorch's runs of the depth designs come to."""
    from experiments.fresh_seeds import SEEDS as FRESH
    from snippets.training.ex03_model import Attention, count_parameters
    from snippets.width_and_depth import ex07_depth_rates
    from snippets.width_and_depth.ex04_one_head_per_layer import (
        D_STREAM,
        OneHeadPerLayer,
    )
    from snippets.width_and_depth.ex09b_paired import passes, settings

    outcomes = depth_outcomes()
    least = claims.TWO_HEADS_MIN_ACCURACY  # accurate: 0.85 on a lookup
    there_both, there_own = (
        sum(passes(settings[at]["2 layers"])) for at in ("shared", "own best")
    )
    low, high = interval(there_both, len(FRESH))
    both = {
        d: sum(min(r["accuracy"]) >= least for r in runs)
        for d, runs in outcomes.items()
    }
    one_lookup = [r for r in outcomes["1 layer"] if max(r["accuracy"]) >= least]
    assert len(one_lookup) == len(outcomes["1 layer"])  # "in all 12"
    # where each layer's head puts most weight: 0 previous, 1 largest key, 2 just
    # after it
    most = [[ls.index(max(ls)) for ls in r["looks"]] for r in outcomes["2 layers"]]
    assert both["2 layers"] == len(most)  # "in all 10"
    side_by_side = sum(sorted(places) == [0, 1] for places in most)
    assert side_by_side == both["2 layers"]  # "one layer's head on ... the other's"
    composed = sum(2 in places for places in most)
    # layer 1 switched off: layer 2's lookup (the place its head looks at most)
    # below 0.85 with layer 1 zeroed, and with it set to its mean
    broken_by = {
        how: sum(
            r["layer 1 off"][how][places[1]] < least
            for r, places in zip(outcomes["2 layers"], most, strict=True)
        )
        for how in ["zero", "mean"]
    }
    return {
        "the stream": f"a stream of {D_STREAM} numbers",
        "one layer's outcome": (
            f"first {len(outcomes['1 layer'])} seeds (those checked step for "
            f"step below) it is accurate on one lookup in\nall "
            f"{len(one_lookup)} and on both in {['none'][both['1 layer']]}"
        ),
        "two layers' outcome": (
            f"the first {len(most)} seeds, two layers are accurate on both "
            f"lookups in\nall {both['2 layers']}"
        ),
        "layer 1 on previous": f"in {sum(places[0] == 0 for places in most)} of them",
        "composed there": (
            f"found another way in {ex07_depth_rates.after} of its "
            f"{len(FRESH)} fresh seeds"
        ),
        "composed": f"{['None'][composed]} of these {len(most)} does it",
        "ten seeds are few": (
            f"over\nits {len(FRESH)} fresh seeds at these settings, width-and-depth "
            f"finds two layers accurate on\nboth lookups in {there_both} (95% interval "
            f"{low} to {high}), and in {there_own} at their own best"
        ),
        "layer 1 zeroed": (
            f"in\n{broken_by['zero']} of them; setting it to its mean, in "
            f"{broken_by['mean']}."
        ),
        "weights": (
            f"{count_parameters(OneHeadPerLayer(2))}, against "
            f"{count_parameters(OneHeadPerLayer(1))} for one layer on the stream and "
            f"{count_parameters(Attention(2, 2))} for"
        ),
    }


def checked_numbers() -> dict:
    """ "How the page is checked": the runs checked step for step, and where
    PyTorch's own spread (a nudged run) passes 1e-9."""
    from tests.browser.test_train_it import EARLY

    spread = {key: pytorch_spread(e) for key, e in records(twin)["runs"].items()}
    ill = [key for key, s in spread.items() if s > STRICT]
    twin_out = [  # the Python by hand, past 1e-9 from PyTorch in loss or weights
        key
        for key, e in records(twin)["runs"].items()
        if max(e["twin"]["loss"], *e["twin"]["weights"].values()) > STRICT
    ]
    (needs,) = twin_out  # "it needs that allowance in one"
    needs_design, needs_seed = needs.split("/")
    assert needs_design == "4x1"
    depth_out = {  # the depth designs' Python twin, likewise
        design: [
            s
            for s in seeds
            if max(
                (e := records(depth)["runs"][f"{design}/{s}"])["twin"]["loss"],
                *e["twin"]["weights"].values(),
            )
            > STRICT
        ]
        for design, seeds in depth.STEP_SEEDS.items()
    }
    loose = [key for key, s in spread.items() if MULTIPLE * s > STRICT]  # the rule
    assert all(key.startswith("4x1/") for key in loose)  # "no seed of the other two"
    n_four = len(twin.STEP_SEEDS["4x1"])
    runs = records(depth)["runs"]
    first = {  # the step where PyTorch's own spread first passes 1e-9, if it does
        key: next((step for step, gap in entry["spread"] if gap > STRICT), None)
        for key, entry in runs.items()
    }
    two_ill = [first[f"2 layers/{s}"] for s in depth.STEP_SEEDS["2 layers"]]
    assert None not in two_ill  # "in all 10"
    one_layer = depth.STEP_SEEDS["1 layer"]
    one_ill = [s for s in one_layer if first[f"1 layer/{s}"]]
    one_loose = [
        s for s in one_layer if MULTIPLE * pytorch_spread(runs[f"1 layer/{s}"]) > STRICT
    ]
    seed_0 = pytorch_spread(runs["2 layers/0"])
    weight_spread = max(runs["2 layers/0"]["weight spread"].values())
    loosens = f"$10^{{{math.log10(STRICT / MULTIPLE):.0f}}}$"  # where the rule loosens
    return {
        "the first random number": f"{random.Random(0).random():.3f}",
        "steps checked": (
            f"the first {len(twin.STEP_SEEDS['2x2'])} seeds of each design, "
            f"and the first {n_four}"
        ),
        "PyTorch's own spread": f"in {len(ill)} of its first {n_four} seeds",
        "the worst": f"in the worst by {max(spread.values()) / STRICT:.0f} times",
        "the twin's allowance": f"four heads\nof width 1, seed {needs_seed}, where",
        "the twin's runs": (
            f"Over the {len(records(twin)['runs'])} runs of the training page's three"
        ),
        "the depth twin's allowance": (
            "in {} of\nits {} runs of one layer and {} of its {} runs of two".format(
                len(depth_out["1 layer"]),
                len(depth.STEP_SEEDS["1 layer"]),
                len(depth_out["2 layers"]),
                len(depth.STEP_SEEDS["2 layers"]),
            )  # fmt: skip
        ),
        "where the rule loosens": [
            f"spread passes\n{loosens}",
            f"in {len(loose)} of those {n_four} seeds",
        ],
        "depth seeds checked": (
            f"seeds 0 to {depth.STEP_SEEDS['2 layers'][-1]} of two layers "
            f"and 0 to {one_layer[-1]} of one"
        ),
        "two layers spread": f"in all {len(two_ill)} of",
        "where it starts": f"between {min(two_ill)} and {max(two_ill)}",
        "seed 0": f"comes to {1 + seed_0:.1f} times",
        "how loose": (
            f"any loss from zero up to about {1 + MULTIPLE * seed_0:.0f} times "
            f"PyTorch's would pass, and\na weight within up to "
            f"{MULTIPLE * weight_spread:.2f}, the allowance of the tensor whose spread "
            "is largest"
        ),
        "the first steps": f"the first {EARLY} steps of seed 0",
        "one layer spread": (
            f"in {len(one_ill)} of its {len(one_layer)} seeds (and {loosens}, where "
            f"the rule loosens, in {len(one_loose)}), so "
            f"{len(one_layer) - len(one_ill)}"
        ),
    }


def last_step_rate() -> float:
    """The learning rate of the last step, as CosineAnnealingLR sets it: stepped
    once after each of the STEPS - 1 steps before it."""
    weight = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    optimizer = torch.optim.Adam([weight], lr=train.LR)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, train.STEPS)
    for _ in range(train.STEPS - 1):
        optimizer.step()
        schedule.step()
    return schedule.get_last_lr()[0]


def test_the_schedule_is_cosine_annealings_in_value_not_in_every_last_bit():
    """ "In value it is the rate CosineAnnealingLR sets ... though not in every
    last bit": PyTorch's rates, step by step, are learning_rate's within 1e-13,
    relative, and differ from them in the last bits at some steps."""
    weight = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    optimizer = torch.optim.Adam([weight], lr=train.LR)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, train.STEPS)
    theirs = []
    for _ in range(train.STEPS):
        theirs.append(schedule.get_last_lr()[0])
        optimizer.step()
        schedule.step()
    mine = [train.learning_rate(step) for step in range(train.STEPS)]
    pairs = list(zip(theirs, mine, strict=True))
    assert all(a == pytest.approx(b, rel=1e-13) for a, b in pairs)
    assert sum(a != b for a, b in zip(theirs, mine, strict=True)) > train.STEPS // 2


def test_the_last_step_runs_at_a_small_positive_rate():
    """ "The schedule does not reach zero": PyTorch's rate at the last step is the
    by-hand learning_rate(STEPS - 1), above zero; zero is the rate of a step
    after the last."""
    last = last_step_rate()
    assert last == pytest.approx(train.learning_rate(train.STEPS - 1), rel=1e-9)
    assert last > 1e-9 and train.learning_rate(0) == train.LR
    assert train.learning_rate(train.STEPS) < 1e-17


def js_constant(name: str, script: str = "trainer.js") -> str:
    """`const NAME = ...;` in docs/assets/js/`script`: its value, as written."""
    source = (ROOT / "docs/assets/js" / script).read_text(encoding="utf-8")
    (found,) = re.findall(rf"^ *const {re.escape(name)} = (.+?);", source, flags=re.M)
    return found


def test_the_trainers_adam_is_the_pythons():
    """Adam's betas and eps: hard-coded in trainer.js (every other setting reaches
    it from the snippets, hooks/trainer.py), the same as ex03_train's."""
    assert json.loads(js_constant("BETAS")) == list(train.BETAS)
    assert float(js_constant("EPS")) == train.EPS


def loop_numbers() -> dict:
    """ "Every detail, for writing your own loop", and the thresholds wherever the
    prose gives them: as the page's JavaScript gets them (hooks/trainer.py's
    trainer_data, from the snippets), Adam's from ex03_train (its twin in
    trainer.js: test_the_trainers_adam_is_the_pythons), the rest from the code."""
    from hooks.trainer import trainer_data

    data = trainer_data()
    claims_ = {name: f"{value:g}" for name, value in data["claims"].items()}
    tol, accurate = f"{data['tol']:g}", claims_["two_heads_min_accuracy"]
    role, one_head = claims_["role_min_attention"], claims_["one_head_max_accuracy"]
    ratio = claims_["one_head_min_mse_ratio"]
    eps = round(math.log10(train.EPS))
    assert 10.0**eps == train.EPS
    mantissa, exponent = f"{last_step_rate():.1e}".split("e")
    last = f"${mantissa} \\times 10^{{{int(exponent)}}}$"
    shapes = depth.shapes(2)
    stream_width = [  # W_in, a layer's W_query (and key, value), its W_o, W_out
        shapes["W_in"][0],
        shapes["layers.0.W_query"][1],
        shapes["layers.0.W_o"][0],
        shapes["W_out"][1],
    ]
    one_layer = sum(w.numel() for w in stream.initial_weights(0).values())
    return {
        "the last step's rate": [last, last],
        "the step that is not taken": f"a step {train.STEPS + 1}",
        "the stream, in the depth shapes": [str(n) for n in stream_width],
        "one layer's weights": f"{one_layer} numbers in all",
        "beta 1": f"\\beta_1 = {train.BETAS[0]:g}",
        "beta 2": f"\\beta_2 = {train.BETAS[1]:g}",
        "eps": f"\\epsilon = 10^{{{eps}}}",
        "held out": f"{data['test_size']} of them, drawn once",
        "held out, seed": f"seeded with {data['test_seed']:,}",
        "accurate within": [
            f"within {tol} of their target",
            f"less than {tol} from its",
            f"within {tol} of its target",
        ],
        "accurate on a lookup": [
            *[f"({accurate} or more on each)"] * 2,
            f"with {accurate} or more on each",
            f"below {accurate} too",
            f"lookup is below {accurate}",
        ],
        "a head's place": [
            f"at least {role} of its weight",
            f"whether that is {role} or more",
            f"less than {role} there",
            f"puts {role} or more of its",
        ],
        "one head's accuracy": [
            f"at most {one_head} of the outputs",
            f"above {one_head}, and",
        ],
        "one head's error": [
            f"at least {ratio} times that",
            f"less than {ratio} times theirs",
        ],
        "start alike": [
            f"more than {claims_['js_before_max']} bits",
            f"at most {claims_['js_before_max']} bits before training",
        ],
        "end apart": [
            f"by {claims_['js_after_min']} bits or more",
            f"at least\n{claims_['js_after_min']} after",
        ],
    }


def staircase_found(k: int, h: int) -> tuple[int, int]:
    """make staircase's count for a cell: seeds that learned all k, of how many."""
    from snippets.how_many_heads.ex05_staircase import found

    return found(k, h)


def cell_numbers() -> dict:
    """The section on how-many-heads' cells: the width and its splits (the form's
    boxes too), the cells and the seeds make twin-lookups trained, the line."""
    from hooks.trainer import trainer_data

    data = trainer_data()
    width, heads = cells.CELL_WIDTH, staircase.HEADS
    cells_ = cell_results.lookups_results["cells"]
    line = data["claims"]["two_heads_min_accuracy"]

    def found(k, h):  # seeds 0 to 99 accurate on every lookup, as the page shows
        return data["lookups"]["pytorch"][f"{k},{h}"]

    enough = [found(k, h) for k, h in cells_ if h >= k]
    assert all(found(k, h) == 0 for k, h in cells_ if h < k and (k, h) != (4, 3))
    theirs = staircase_found(4, 3)
    splits = [f"{h} head{'s' * (h > 1)} of width {width // h}" for h in heads]
    words = ["one", "two", "three", "four"]
    return {
        "the cells' width": [
            f"heads at a width of {width}, a cell",
            f"several lookups at once, at a width of {width}",
            f"at a total width of {width}",
            f"at a width of {width} with one output",
            f"{width} numbers wide",
        ],
        "the form's boxes": splits,
        "the splits": "("
        + ", ".join(
            f"{words[h - 1]} {'head of width' if h == 1 else 'of'} {width // h}"
            for h in heads
        ).replace(", four", " or four")
        + ")",
        "the cells, in the long test": f"all {len(cells_)} cells",
        "the cells' line": f"({line:g} or more of the held-out",
        "the cells' tolerance": f"outputs within {data['tol']:g},",
        "the cells' staircase": (
            f"in {min(enough)} or more of the {len(cell_twin.SEEDS)} seeds; with fewer "
            f"heads,\nin none, but for four lookups with three heads, in {found(4, 3)} "
            f"of {len(cell_twin.SEEDS)} here against {theirs[0]} of {theirs[1]}"
        ),
    }


def own_best_numbers() -> dict:
    """ "Each design at its own best, in PyTorch": the rates at each design's own
    best against the training page's settings and width-and-depth's tuned runs;
    how often a one-ulp nudge changes PyTorch's own outcome; the runs whose own
    spread passes DETERMINED."""
    from tools.spread_rule import DETERMINED, OWN_BEST_FLOOR

    line = claims.TWO_HEADS_MIN_ACCURACY

    def rates(records: dict, design: str) -> tuple[int, int]:
        """(meets every claim, accurate on both lookups) over the seeds."""
        correct = records["correct"][design]
        failing = set().union(*records["broken"][design].values())
        total = records["total"]
        return len(correct) - len(failing), sum(min(c) / total >= line
                                                for c in correct.values())  # fmt: skip

    own, page = own_best.tuned_results, results.twin_results
    mine = {d: rates(own, d) for d in DESIGNS}
    shared = {d: rates(page, d) for d in DESIGNS}
    fair = fair_fight.tuned_results["designs"]
    there = {}  # width-and-depth's fresh seeds, each at its own best: both lookups
    for design in DESIGNS:
        runs = fair[own_twin.NAMES[design]]
        pairs = zip(runs["previous"], runs["largest key"], strict=True)
        there[design] = sum(min(pair) >= line for pair in pairs)
    two_missing = own["broken"]["2x2"]["not accurate on both lookups"]
    page_missing = page["broken"]["2x2"]["not accurate on both lookups"]
    only_own = len(set(two_missing) - set(page_missing))
    only_page = len(set(page_missing) - set(two_missing))
    from snippets.width_and_depth.ex09b_paired import mcnemar_exact, paired

    there_shared, there_own, _ = paired[("2 x 2", "shared"), ("2 x 2", "own best")]
    alone = mcnemar_exact(only_own, only_page)
    pooled = mcnemar_exact(only_own + there_shared, only_page + there_own)
    assert alone > 0.05 and pooled < 0.01  # "alone do not establish it"; pooled 0.006
    four_own = set(own["broken"]["4x1"]["not accurate on both lookups"])
    four_page = set(page["broken"]["4x1"]["not accurate on both lookups"])
    four_gain, four_loss = len(four_page - four_own), len(four_own - four_page)
    four_p = mcnemar_exact(four_gain, four_loss)
    assert four_p < 0.001  # "beyond chance"
    no_head = own["broken"]["2x2"]["no separate head for each lookup"]
    accurate_but = sorted(set(no_head) - set(two_missing))
    assert own["broken"]["1x4"] == {"error not clearly larger": two_missing}
    assert own["broken"]["4x1"]["no separate head for each lookup"] == list(range(100))
    verdicts = sum(  # runs whose verdict a one-ulp nudge changes
        sorted(c for c, seeds in own["broken"][d].items() if s in seeds)
        != sorted(c for c, seeds in own["nudged broken"][d].items() if s in seeds)
        for d in DESIGNS
        for s in own["correct"][d]
    )
    moved = []  # how far a one-ulp nudge moves each run's held-out counts
    for design in DESIGNS:
        for seed, correct in own["correct"][design].items():
            again = own["nudged correct"][design][seed]
            moved.append(max(abs(a - b) for a, b in zip(correct, again, strict=True)))
    steps = json.loads(own_twin.STEPS_FILE.read_text(encoding="utf-8"))["runs"]
    undetermined = [k for k, e in steps.items() if pytorch_spread(e) > DETERMINED]
    cuts = [min(step for step, gap in steps[k]["spread"] if gap > DETERMINED)
            for k in undetermined]  # fmt: skip
    movers = {d for d in DESIGNS for s, c in own["correct"][d].items()
              if max(abs(a - b) for a, b in zip(c, own["nudged correct"][d][s],
                                                strict=True)) > 1}  # fmt: skip
    assert movers == {"2x2", "4x1"}  # "one head of width 4 ... moves in none"
    assert not [k for k in undetermined if k.split("/")[0] in ("1x4", "1L")]
    stepped = [k.split("/")[0] for k in steps]  # "of the 10 of each design"
    assert set(stepped) == {*DESIGNS, "1L", "2L"}  # "the other two": 1x4 and 1L
    each = len(steps) // len(set(stepped))  # runs of each design
    assert all(stepped.count(d) == each for d in stepped)
    n_runs = len(DESIGNS) * len(own["correct"]["2x2"])
    from experiments.fair_fight import RATES

    assert verdicts == 0  # "all 300 runs"
    assert 2 / 3 < claims.ROLE_MIN_ATTENTION  # width 1: "at most 2/3, under"
    two_rate, _ = own["settings"]["2x2"]
    assert two_rate == max(RATES)  # "the highest make tune tried"
    (steps_each,) = {steps for _, steps in own["settings"].values()}
    # "Best" is the best of what was tried (make tune's records)
    tuned = fair_fight.tuned_results
    assert tuned["rates"] == RATES and len(RATES) == 4  # "four learning rates"
    assert tuned["steps"] == (train.STEPS, 2 * train.STEPS) == (train.STEPS, steps_each)
    start, stop = tuned["tuning seeds"]
    n_tuning = stop - start
    assert all(steps == max(tuned["steps"]) for _, steps in tuned["best"].values())
    ties = [  # every setting within the rule's tie of the best worse-lookup median
        name
        for name, settings in tuned["tuning"].items()
        if max(w for w, _ in settings.values()) - min(w for w, _ in settings.values())
        <= tuned["tie"]
    ]
    assert {"1 x 4", "1 layer"} <= set(ties)  # "every setting tied"
    assert not {"2 x 2", "4 x 1", "2 layers"} & set(ties)  # ... and only they
    first = {  # the rates at the page's steps: the first round of the rule
        name: {lr: w for (lr, s), (w, _) in settings.items() if s == train.STEPS}
        for name, settings in tuned["tuning"].items()
    }
    rate_ties = {  # the tie decided the rate
        name
        for name, worse in first.items()
        if sum(w >= max(worse.values()) - tuned["tie"] for w in worse.values()) > 1
    }
    assert {"1 x 4", "1 layer"} <= rate_ties  # "the tie decided the rate"
    four = first["4 x 1"]  # a second rate tied, and the best median was chosen anyway
    assert "4 x 1" in rate_ties and tuned["best"]["4 x 1"][0] == max(four, key=four.get)
    assert not {"2 x 2", "2 layers"} & rate_ties
    two = tuned["tuning"]["2 x 2"]
    two_mse = [two[(train.LR, train.STEPS)][1], two[(two_rate, train.STEPS)][1],
               two[(two_rate, steps_each)][1]]  # fmt: skip
    assert two_mse[1] - two_mse[2] > two_mse[0] - two_mse[1]  # "mostly with the steps"
    names = {"1L": "1 layer of 1 head", "2L": "2 layers of 1 head each"}
    for design, (heads, d_head) in DESIGNS.items():
        names[design] = f"{heads} head{'s' * (heads > 1)} of width {d_head}"
    listed = [f"{lr} for {names[d]}" for d, (lr, _) in own["settings"].items()]
    return {
        "own best, the note": (
            f"a learning rate of {', '.join(listed[:-1])} and {listed[-1]}, and "
            f"{steps_each} steps. The training page's: a learning rate of "
            f"{train.LR} and {train.STEPS} steps."
        ),
        "own best, the rate": [
            f"a rate of {two_rate}, the highest",  # `make tune` tried
            f"tried, for {steps_each} steps, where the page's are {train.LR} for "
            f"{train.STEPS}",
        ],
        "own best, rate or steps": (
            "the median test error falls from {:.4f} to {:.4f} with the rate and to "
            "{:.4f} with the steps".format(*two_mse)
        ),
        "own best, the tie": f"settings within {tuned['tie']} of the best median",
        "own best, the cut-off's choice": (
            f"$10^{{{math.log10(DETERMINED):.0f}}}$ was chosen after seeing those"
        ),
        "own best, not tried": f"({train.LR} for {steps_each}\nsteps was not tried)",
        "own best, what was tried": [
            f"then twice the steps at the best of them, judged by the median "
            f"accuracy on the\nworse lookup over {n_tuning} tuning seeds",
        ],
        "own best, the steps": f"over {steps_each} steps that alone",
        "own best, the loop": f"and {steps_each} steps in place\nof {train.STEPS}",
        "own best, two heads": (
            f"both lookups in {mine['2x2'][1]} of the 100 seeds and meet every claim "
            "in {} (95% intervals {} to {} and {} to {}), ".format(
                mine["2x2"][0],
                *interval(mine["2x2"][1], 100),
                *interval(mine["2x2"][0], 100),
            )
            + f"against {shared['2x2'][1]} and {shared['2x2'][0]}"
        ),
        "own best, there": f"lean the same way: {there['2x2']} of 100",
        "own best, one head": (
            f"meets every claim in {mine['1x4'][0]}, and each of the "
            f"{len(two_missing)} it misses is a seed where two heads missed\na lookup "
            f"(below); accurate on both lookups it is in {mine['1x4'][1]}"
        ),
        "own best, the failing two": f"in the\n{len(two_missing)} seeds where two",
        "own best, seed by seed": f"seed by seed, {only_own} of these seeds miss one "
        f"only at their own best\nand {only_page} only",
        "own best, alone": f"either way, with probability {alone:.3f}",
        "own best, four heads seed by seed": (
            f"{four_gain} gain both lookups and {four_loss} lose them, a split at "
            f"least that uneven\nthat chance gives with probability {four_p:.4f}"
        ),
        "own best, there seed by seed": f"{there_shared} seeds to\n{there_own}",
        "own best, pooled": (
            f"split {only_own + there_shared} to {only_page + there_own}, at least as "
            f"uneven as chance gives with probability {pooled:.3f}"
        ),
        "own best, accurate but": (
            f"seeds ({', '.join(map(str, accurate_but[:-1]))} and {accurate_but[-1]})"
            f" learn both lookups at their own best but break the claim the\noutput "
            f'calls "no separate head for each lookup", and so {mine["2x2"][0]} meet'
        ),
        "width 1's bound": [
            f"at most 2/3, under the claim's {claims.ROLE_MIN_ATTENTION}",
            f"one of them puts less than {claims.ROLE_MIN_ATTENTION} of its weight "
            "there",
        ],
        "own best, the claim's test": (
            f"puts less than {claims.ROLE_MIN_ATTENTION} of its weight on its lookup's"
        ),
        "own best, the seeds": f"the same seeds {own['seeds'][0]} to "
        f"{own['seeds'][1] - 1} of the three",
        "own best, four heads": (
            f"on both in {mine['4x1'][1]} ({{}} to {{}}), ".format(
                *interval(mine["4x1"][1], 100)
            )
            + f"against {shared['4x1'][1]} at the "
            f"training page's settings ({there['4x1']} of 100"
        ),
        "own best, nudged": (
            f"changes in {verdicts}\nof the {n_runs} runs, and its held-out counts "
            f"move by more than one in {sum(m > 1 for m in moved)}, in the worst by\n"
            f"{max(moved)} of {own['total']}"
        ),
        "own best, all agree": f"agrees with it (all {n_runs - verdicts} runs here)",
        "own best, undetermined": (
            f"passes $10^{{{math.log10(DETERMINED):.0f}}}$ in\n{len(undetermined)} of "
            f"the {len(steps)} runs"
        ),
        "own best, by design": f"(of the {each} of each design: "
        + ", ".join(
            f"{sum(k.startswith(f'{d}/') for k in undetermined)} of {words}"
            for d, words in [
                ("2x2", "two heads of width 2"),
                ("4x1", "four\nheads of width 1"),
                ("2L", "two layers"),
            ]
        )
        + ", none of the other two",
        "own best, the cut": f"at a step between {min(cuts)} and {max(cuts)} of the "
        f"{steps_each}",
        "own best, the floor": (
            f"floor here is $10^{{{math.log10(OWN_BEST_FLOOR):.0f}}}$"
        ),
        # tests/browser/test_train_it.py asserts the planted error's loss between them
        "own best, the subtle error": [
            f"less than $10^{{{math.log10(OWN_BEST_FLOOR):.0f}}}$, which this floor",
            f"more than $10^{{{math.log10(OWN_BEST_FLOOR):.0f}}}$, so the floor",
        ],
    }


def chart_numbers() -> dict:
    """The loss chart's range, as train-it.js draws it (a loss outside it is drawn
    at the edge, which the page says)."""
    low, high = json.loads(js_constant("[LOW, HIGHEST]", "train-it.js"))
    return {
        "the loss chart's range": f"$10^{{{low}}}$ to {10**high}",
        "the check's atol": f"difference of $10^{{{math.log10(ATOL):.0f}}}$ besides",
    }


def test_prose_numbers():
    from tests.pages import check_prose_numbers

    # ... and the references: years, pages and arXiv numbers; a cell's width, 12;
    # ECMA-262's edition and sections
    definitions = (
        "0 1 2 3 4 5 8 9 10 100 256 800 4096 0.1 1% 1.01 12 1998 2015 "
        "2017 30 623 1412.6980 1608.03983 2002 32"
        " 1947 12 153 157 1927 22 158 209 212 262 2024 21.3.2 6.1.6.1.3 3345"
    )
    check_prose_numbers(
        "train-it.md",
        computed=seed_numbers()
        | depth_numbers()
        | checked_numbers()
        | loop_numbers()
        | cell_numbers()
        | own_best_numbers()
        | chart_numbers(),
        definitions=set(definitions.split()),
    )


def test_the_two_generators_seeded_alike_draw_the_same_numbers():
    """ "the first values of the first batch are made from the same u as the
    initial weights": the first batch's first value v and the first weight w come
    from one u, v = 2u - 1 and w = (2u - 1) / sqrt(8)."""
    for seed in range(3):
        w = stream.initial_weights(seed)["W_query.weight"].flatten()
        x, _ = stream.make_batch(256, random.Random(seed))
        v = x[..., 0].flatten()
        assert torch.equal(w[:8], v[:8] * (1 / math.sqrt(8)))
