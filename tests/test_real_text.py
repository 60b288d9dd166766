"""docs/real-text.md: the set-up is fair (the same parameters, starting weights,
batches and steps for every h); the records of `make sweep`, which the page
prints from, are for this code; and every claim the prose makes about them holds.
"""

import statistics

import pytest
import torch

from experiments import head_sweep
from snippets.real_text.sweep_results import sweep_results
from tests.pages import check_prose_numbers, lazy, on_page

PAGE = "real-text.md"
corpus = on_page(PAGE, "snippets.real_text.ex01_corpus")
model = on_page(PAGE, "snippets.real_text.ex02_model")
parameters = on_page(PAGE, "snippets.real_text.ex03_parameters")
training = on_page(PAGE, "snippets.real_text.ex04_train")
sweep = on_page(PAGE, "snippets.real_text.ex05_sweep")  # trains the page's tiny sweep
results = on_page(PAGE, "snippets.real_text.ex06_results")
figure = on_page(PAGE, "snippets.real_text.ex07_figure")
anchors = on_page(PAGE, "snippets.real_text.ex08_anchors")
gap = on_page(PAGE, "snippets.real_text.ex09_gap")
toy_seeds = lazy("snippets.training.seed_results")
nudge_spread = lazy("experiments.nudge_spread")  # imports the toy's designs

FIELDS = sweep_results["fields"]
RUNS = [dict(zip(FIELDS, run, strict=True)) for run in sweep_results["runs"]]
SETTINGS = sweep_results["settings"]


# --- the corpus ------------------------------------------------------------------


def test_the_corpus_is_pythons_topics_split_90_10():
    from pydoc_data.topics import topics

    assert corpus.text == "".join(topics[name] for name in sorted(topics))
    assert len(corpus.train_data) + len(corpus.val_data) == len(corpus.text)
    assert len(corpus.train_data) == int(0.9 * len(corpus.text))
    assert corpus.VOCAB == len(set(corpus.text))
    decoded = "".join(corpus.chars[i] for i in corpus.data[:200].tolist())
    assert decoded == corpus.text[:200]


def test_the_validation_text_runs_from_mappings_to_yield():
    """The prose: the last tenth starts in the middle of the topic on mappings
    and runs to the end of the topic on `yield`."""
    names, split, at = corpus.names, len(corpus.train_data), 0
    for name in names:
        if at <= split < at + len(corpus.topics[name]):
            break
        at += len(corpus.topics[name])
    assert name == "typesmapping" and at < split
    assert names[-1] == "yield"


def test_the_records_are_for_this_corpus():
    assert sweep_results["corpus"] == head_sweep.corpus_key(), (
        "snippets/real_text/sweep_results.py was measured on another text: "
        "pydoc_data.topics differs between Python releases. Run `make sweep`."
    )


# --- a fair comparison -----------------------------------------------------------


@pytest.mark.parametrize("d_model", [s["d_model"] for s in SETTINGS.values()])
def test_every_h_has_the_same_parameter_count(d_model):
    heads = SETTINGS[f"width {d_model}"]["heads"]
    counts = {
        parameters.count_parameters(model.GPT(model.Config(h, d_model=d_model)))
        for h in heads
    }
    assert len(counts) == 1
    (n,) = counts
    d, vocab, t = d_model, corpus.VOCAB, 64
    per_block = 4 * d + (3 * d * d + 3 * d) + (d * d + d) + (8 * d * d + 5 * d)
    assert n == vocab * d + t * d + 2 * per_block + 2 * d + d * vocab + vocab


def test_the_page_sweeps_h_from_1_to_16_at_a_fixed_width():
    heads = SETTINGS["width 64"]["heads"]
    assert list(parameters.HEADS) == list(heads)
    assert len(heads) >= 4 and min(heads) == 1 and max(heads) == 16
    assert all(64 % h == 0 for h in heads)


def test_every_h_starts_from_the_same_weights():
    """The prose: the seed sets the starting weights, the same numbers for every
    h (the shapes do not depend on h)."""
    states = []
    for h in (1, 16):
        torch.manual_seed(3)
        states.append(model.GPT(model.Config(h)).state_dict())
    assert states[0].keys() == states[1].keys()
    assert all(torch.equal(states[0][k], states[1][k]) for k in states[0])


def test_the_data_order_does_not_depend_on_h(monkeypatch):
    """train() draws its batches from a generator of its own, seeded by the
    seed: whatever h, the same windows of text in the same order."""
    module = training.imported()
    seen = {}

    def recording(h):
        def batch(data, context, generator):
            x, y = real(data, context, generator)
            seen.setdefault(h, []).append((x, y))
            return x, y

        return batch

    real = module.batch
    monkeypatch.setattr(module, "validation_loss", lambda model, context: 0.0)
    for h in (1, 16):
        monkeypatch.setattr(module, "batch", recording(h))
        module.train(model.Config(h), seed=4, steps=3)
    assert len(seen[1]) == len(seen[16]) == 3
    for (x1, y1), (x16, y16) in zip(seen[1], seen[16], strict=True):
        assert torch.equal(x1, x16) and torch.equal(y1, y16)
    assert not torch.equal(seen[1][0][0], seen[1][1][0])  # a new batch each step


def test_the_targets_are_the_next_characters():
    x, y = training.batch(corpus.train_data, 64, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (training.BATCH, 64)
    assert torch.equal(x[:, 1:], y[:, :-1])


def test_the_learning_rate_warms_up_then_falls_to_a_tenth():
    lr, steps = training.learning_rate, training.STEPS
    warmup = [lr(s, steps) for s in range(training.WARMUP)]
    assert warmup == sorted(warmup) and warmup[-1] == training.LR
    assert lr(training.WARMUP, steps) == pytest.approx(training.LR)
    assert lr(steps - 1, steps) == pytest.approx(training.LR / 10)
    # the first WARMUP steps do not depend on the length of the run, so the
    # first 100 steps of a short run are those of the sweep's (below)
    assert all(lr(s, 100) == lr(s, steps) for s in range(training.WARMUP))
    assert head_sweep.CHECKED_STEPS <= training.WARMUP


def test_every_run_of_the_sweep_trained_the_same_steps():
    assert {r["steps"] for r in RUNS} == {training.STEPS}
    assert {r["context"] for r in RUNS} == {64}


# --- the records: complete, fresh, and from this code ------------------------------


def test_the_sweep_results_are_for_this_code():
    assert sweep_results["code"] == head_sweep.code_key(), (
        "snippets/real_text/sweep_results.py is stale: the page's model or "
        "training code, or the sweep's, changed since `make sweep` wrote it. Run "
        "`make sweep` (about 27 minutes on 2 idle cores), which rewrites it and the "
        "page's output blocks."
    )


def test_the_records_hold_every_run_of_one_full_sweep():
    expected = {
        (s["d_model"], h, seed)
        for s in SETTINGS.values()
        for h in s["heads"]
        for seed in head_sweep.SEEDS
    }
    assert SETTINGS == head_sweep.SETTINGS
    assert {(r["d_model"], r["heads"], r["seed"]) for r in RUNS} == expected
    assert len(RUNS) == len(expected) and len(head_sweep.SEEDS) >= 5
    assert list(sweep.SEEDS) == list(head_sweep.SEEDS)
    # the wall time the page gives is a full sweep's: every run trained in it
    assert sweep_results["machine"]["runs trained"] == len(RUNS)


# One run's first 100 steps trained again, under whatever kernels the suite runs:
# their mean loss is its record (to 6 decimals), and each loss is the one `make
# spread` recorded, within the spread a one-ulp nudge of the start makes
# (experiments/nudge_spread.py).
def test_one_run_trained_again_gives_its_record():
    job = nudge_spread.JOBS[-1]
    assert job[0] == "real text"
    assert nudge_spread.REAL_TEXT | {"steps": training.STEPS} in [
        {k: r[k] for k in ("d_model", "heads", "seed", "steps")} for r in RUNS
    ]
    assert head_sweep.CHECKED_STEPS == nudge_spread.EARLY
    assert nudge_spread.compare(job, nudge_spread.run_job(job)) == []


# --- the page's tiny sweep ---------------------------------------------------------


def test_the_sweep_returns_each_runs_validation_loss(monkeypatch):
    """sweep() is train's validation loss, for each h and seed in order, with
    the setting passed on (train itself faked: the page's block runs the real
    one and its output block is checked)."""
    calls = []

    def fake_train(config, seed, steps):
        calls.append((config, seed, steps))
        return [], config.num_heads + seed / 10 + steps / 1e4, 0.0

    assert list(sweep.tiny) == [1, 4] and all(len(v) == 1 for v in sweep.tiny.values())
    monkeypatch.setitem(sweep.lazy_module(), "train", fake_train)  # the page's run
    got = sweep.sweep(heads=[2, 8], seeds=[0, 3], steps=7, d_model=128)
    assert got == {2: [2.0007, 2.3007], 8: [8.0007, 8.3007]}
    assert [(c.num_heads, c.d_model, seed, steps) for c, seed, steps in calls] == [
        (2, 128, 0, 7), (2, 128, 3, 7), (8, 128, 0, 7), (8, 128, 3, 7)
    ]  # fmt: skip


def test_the_tiny_sweeps_printed_digits_are_far_from_a_rounding_edge():
    """Printed to 3 decimals: another CPU moves them by far less than 1e-4."""
    for losses in sweep.tiny.values():
        for loss in losses:
            assert abs((loss * 1000) % 1 - 0.5) > 0.1  # 1e-4 from an edge


# --- the claims the prose makes about the records -----------------------------------


def means(d_model):
    heads = SETTINGS[f"width {d_model}"]["heads"]
    return {h: statistics.mean(results.losses(d_model, h)) for h in heads}


def test_the_paired_t_is_the_mean_difference_over_its_standard_error():
    difference, sd, t, lower = gap.compare(64, 1, 4)
    la, lb = results.losses(64, 1), results.losses(64, 4)
    each = [x - y for x, y in zip(la, lb, strict=True)]
    assert difference == pytest.approx(statistics.mean(each))
    assert sd == pytest.approx(statistics.stdev(each))
    assert t == pytest.approx(difference * len(each) ** 0.5 / sd)
    assert lower == sum(x < y for x, y in zip(la, lb, strict=True))


def test_chance_gives_a_paired_t_beyond_2_776_in_5_percent_of_experiments():
    """Student's t with 4 degrees of freedom (five seeds), integrated here."""
    n = len(head_sweep.SEEDS)
    t = torch.distributions.StudentT(torch.tensor(n - 1.0, dtype=torch.float64))
    x = torch.linspace(gap.T_5_PERCENT, 2000, 2_000_001, dtype=torch.float64)
    tail = torch.trapezoid(t.log_prob(x).exp(), x)  # beyond 2000: below 1e-12
    assert 2 * tail.item() == pytest.approx(0.05, abs=5e-5)


def test_at_width_64_one_head_is_as_good_as_the_best():
    """'one head is as good as the best': the lowest mean; two heads, the next
    best, with a paired t of 0.2, and which of the two ends lower depends on
    the seed."""
    mean = means(64)
    assert min(mean, key=mean.get) == 1
    assert sorted(mean, key=mean.get)[1] == 2
    difference, _, t, lower = gap.compare(64, 1, 2)
    assert difference < 0 and abs(t) < 1
    assert 0 < lower < len(head_sweep.SEEDS)


def test_at_width_64_five_seeds_cannot_place_1_head_against_2_or_4_but_the_rest():
    """'five seeds cannot place one head against two or four', but two heads end
    lower than four in all five seeds, beyond chance; eight and sixteen heads are
    behind one head 'in each of the five seeds', 'far beyond chance'."""
    for h in (2, 4):
        assert abs(gap.compare(64, 1, h)[2]) < gap.T_5_PERCENT
    _, _, t, lower = gap.compare(64, 2, 4)
    assert lower == len(head_sweep.SEEDS) and t < -gap.T_5_PERCENT
    for h in (8, 16):
        difference, _, t, lower = gap.compare(64, 1, h)
        assert lower == len(head_sweep.SEEDS) and t < -2 * gap.T_5_PERCENT


def test_at_width_128_two_heads_beat_one_in_every_seed_at_the_same_cost():
    difference, _, t, lower = gap.compare(128, 1, 2)
    assert difference > 0 and lower == 0 and t > 2 * gap.T_5_PERCENT
    # 'at the same CPU time per step': within 10% of each other
    one, two = results.ms_per_step(128, 1), results.ms_per_step(128, 2)
    assert abs(two / one - 1) < 0.1


def test_sixteen_heads_cost_more_cpu_time_per_step():
    """The prose's ratio, and a step's cost rising with h at width 64."""
    ms = [results.ms_per_step(64, h) for h in SETTINGS["width 64"]["heads"]]
    assert ms[-1] > 2 * ms[0] and ms == sorted(ms)


def test_the_idle_estimate_hands_the_runs_to_the_first_free_core():
    every = sum(results.run_seconds(r) for r in results.runs) / 60
    assert results.idle_minutes(1) == pytest.approx(every)
    longest = max(results.run_seconds(r) for r in results.runs) / 60
    two = results.idle_minutes(2)
    assert every / 2 <= two <= every / 2 + longest  # no core idles long


def test_the_sweep_ran_on_a_loaded_machine():
    """'several jobs waiting for each core', and the clock's time well over the
    idle estimate: the page says why."""
    m = sweep_results["machine"]
    assert m["load average before"] / m["cores"] >= 2
    assert m["load average after"] / m["cores"] >= 2
    assert m["wall minutes"] > 3 * results.idle_minutes(m["cores"])


def test_by_one_spread_most_single_run_gaps_could_be_luck_by_the_other_few():
    """'by one yardstick most of them could be the luck of a seed, by the other
    few could', and the standard error of a difference of means with five seeds
    a side."""
    gaps = single_run_gaps()
    assert sum(g < gap.spread for g in gaps) > len(gaps) / 2
    assert sum(g < gap.seeds_sd(128, (1, 2)) for g in gaps) < len(gaps) / 2
    n = len(head_sweep.SEEDS)
    assert gap.spread * (2 / n) ** 0.5 > 0.01  # 'one or two hundredths'


def single_run_gaps():
    """Every nonzero gap to the best row, in nats, of the two tables of others."""
    import math

    logs = [math.log(p) for p, _ in anchors.vaswani.values()]
    loss = [x for x, _ in anchors.tinystories.values()]
    gaps = [x - min(logs) for x in logs] + [x - min(loss) for x in loss]
    return [g for g in gaps if g > 0]


def test_every_sweep_is_best_with_heads_32_or_64_wide():
    """'In each, the best setting has heads 32 or 64 numbers wide ... in the
    nanoGPT sweep and in ours at width 64, that is also the widest head tried),
    and each halving of the heads below that width does worse, in the means.'"""
    sweeps = {
        512: {h: p for h, (p, _) in anchors.vaswani.items()},
        256: {h: x for h, (x, _) in anchors.tinystories.items()},
        64: means(64),
        128: means(128),
    }
    for d_model, loss in sweeps.items():
        best = min(loss, key=loss.get)
        assert d_model // best in (32, 64), d_model
        narrower = [loss[h] for h in loss if h >= best]  # h in rising order
        assert narrower == sorted(narrower) and list(loss) == sorted(loss)
        widest = d_model // min(loss)
        assert (d_model // best == widest) == (d_model in (256, 64))


def test_the_nanogpt_sweeps_32_heads_took_about_three_times_as_long():
    ms = {h: t for h, (_, t) in anchors.tinystories.items()}
    assert round(ms[32] / ms[4]) == 3


def test_the_tiny_sweep_is_still_close_to_guessing():
    import math

    for losses in sweep.tiny.values():
        assert abs(losses[0] - math.log(corpus.VOCAB)) < 0.1


def toy_meets_every_claim():
    results = toy_seeds.seed_results
    return len(results["runs"]) - len(results["broken"]), len(results["runs"])


def test_prose_numbers():
    import math

    m = sweep_results["machine"]
    ms = results.ms_per_step
    ratio16 = f"{ms(64, 16) / ms(64, 1):.1f}"
    # sweep(heads=[1, 16], seeds=[0, 1], steps=500): four runs
    short = 2 * sum(
        results.speed[64, h]["CPU seconds, rest of a run"] + 500 * ms(64, h) / 1000
        for h in (1, 16)
    )
    compare = {h: gap.compare(64, 1, h) for h in (2, 4, 8, 16)}
    wide = gap.compare(128, 1, 2)
    two_four = gap.compare(64, 2, 4)
    logs = {h: math.log(p) for h, (p, _) in anchors.vaswani.items()}
    n = len(head_sweep.SEEDS)
    met, toy_runs = toy_meets_every_claim()
    both = toy_seeds.seed_results["designs"]["2 x 2"][2]
    seen = training.STEPS * training.BATCH * 64  # characters of context: 64
    count = parameters.count_parameters
    timing = results.sweep_results["timing"]
    load = timing["load average before"], timing["load average after"]
    check_prose_numbers(
        "real-text.md",
        computed={
            "uniform guess": [
                f"$\\ln {corpus.VOCAB} \\approx {math.log(corpus.VOCAB):.2f}$"
            ] * 2,
            "the guess's vocabulary": f"the {corpus.VOCAB} characters",
            "a shorter sweep": f"about {short / 60:.1f} minutes of one idle",
            "the full sweep() on one core":
                f"about {results.idle_minutes(1, 64):.0f} minutes.",
            "wall minutes": [
                f"took {m['wall minutes']:.0f} minutes on the clock",
                f"where the {m['wall minutes']:.0f} minutes on the clock say little",
            ],
            "load averages": f"was {m['load average before']} as it started and "
                             f"{m['load average after']} as it ended",
            "idle estimate": f"about {results.idle_minutes(m['cores']):.0f} "
                             "minutes of two idle cores",
            "the timing": f"the timing about {results.timing_minutes():.0f} more. That",
            "the timing's load": f"load average of {load[0]} to {load[1]}, and",
            "16 heads' CPU time": [f"{ratio16} times as much", f"{ratio16} times the"],
            "two heads behind": f"only {-compare[2][0]:.3f} nats behind",
            "two heads' t": f"paired $t$ of {compare[2][2]:.1f}:",
            "four heads behind": f"{-compare[4][0]:.3f} nats behind one head",
            "four heads' t": f"paired $t$ of {compare[4][2]:.1f} stays",
            "chance": [f"beyond {gap.T_5_PERCENT} either",
                       f"inside ±{gap.T_5_PERCENT}"],
            "two against four": f"seeds, by {-two_four[0]:.3f} nats, a paired $t$ of "
                                f"{two_four[2]:.1f}. Eight",
            "eight and sixteen": f"{compare[8][2]:.1f} and {compare[16][2]:.1f},",
            "width 128 gap": f"by {wide[0]:.3f} ± {wide[1]:.3f} nats",
            "pairs resolve": f"five pairs resolve {-two_four[0]:.3f} nats",
            "width 128 t": f"paired $t$ of {wide[2]:.1f},",
            "seeds' sd, width 128":
                f"about {gap.seeds_sd(128, (1, 2)):.3f} at width 128",
            "single-run gaps": f"from {min(single_run_gaps()):.3f} to "
                               f"{max(single_run_gaps()):.3f} nats",
            "characters seen": f"about {seen / 1e6:.1f} million characters",
            "passes": f"about {seen / len(corpus.train_data):.1f} passes",
            "uniform guess of the report": f"about {round(math.exp(5.405), -1):.0f} "
                                           "symbols",
            "Vaswani one head": f"One head is {logs[1] - min(logs.values()):.3f}",
            "Vaswani 32 heads":
                f"are {logs[32] - min(logs.values()):.3f} behind",
            "Vaswani 32 and 64": f"are {logs[8] - logs[16]:.3f} nats apart",
            "nanoGPT ms": f"({anchors.tinystories[32][1]} against "
                          f"{anchors.tinystories[4][1]} milliseconds",
            "spread": [f"about {gap.spread:.3f} nats"] * 2,
            "standard error": f"already {gap.spread * (2 / n) ** 0.5:.3f} nats",
            "toy, accurate": f"in all {both} of its fresh seeds",
            "toy, every claim": f"in [{met} of them",
            "parameters": [
                f"{count(model.GPT(model.Config(1))):,} parameters (width 64)",
                f"{count(model.GPT(model.Config(1, d_model=128))):,} (width 128)",
            ],
        },
        # the losses behind one head, whose sign is in the word (the block prints
        # h = 1's loss minus h's, negative)
        magnitudes={"0.003 nats behind", "0.027 nats behind"},
        definitions={"1", "2", "4", "8", "16", "32", "64", "90%", "10%", "100", "128",
                     "512", "256", "2000", "2017", "2020", "2023", "25",
                     "3", "12", "768", "20", "6.2", "5%", "5.405", "0.5996",
                     "0.6000", "5", "2002.07028", "1706.03762"},  # the references
    )  # fmt: skip


def test_the_figure_draws_every_seed_and_the_mean_and_sd_of_each_h():
    for ax, setting in zip(figure.axes, SETTINGS.values(), strict=True):
        d_model, heads = setting["d_model"], setting["heads"]
        dots = [line for line in ax.get_lines() if line.get_marker() == "o"]
        assert len(dots) == len(heads)
        for line, h in zip(dots, heads, strict=True):
            assert list(line.get_ydata()) == results.losses(d_model, h)
        bars = [c for c in ax.containers if hasattr(c, "has_yerr")]
        assert len(bars) == len(heads)
        for bar, h in zip(bars, heads, strict=True):
            loss = results.losses(d_model, h)
            (mean,) = bar.lines[0].get_ydata()
            assert mean == pytest.approx(statistics.mean(loss))
            (segment,) = bar.lines[2][0].get_segments()
            low, high = segment[0][1], segment[1][1]
            sd = statistics.stdev(loss)
            assert (low, high) == pytest.approx((mean - sd, mean + sd))
