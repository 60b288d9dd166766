"""scripts/audit.py on a made-up Lighthouse report and trace (no Lighthouse runs
here): the longest tasks and what each ran, the trace at CPU time, the order of the
runs and each page's ratio to bare Material, bare Material's configuration."""

from pathlib import Path

import yaml

from scripts.audit import (
    BARE,
    HELD_MS,
    MARGIN,
    ROOT,
    _ConfigLoader,
    bare_config,
    bare_ratios,
    cpu_time_trace,
    first_frame_held_ms,
    long_task_lines,
    long_tasks,
    main_thread_tasks,
    ratio_row,
    row,
    schedule,
    style_layout_ms,
)

PAGE = "http://127.0.0.1:8000/heads/cost/"
BUNDLE = "http://127.0.0.1:8000/heads/assets/javascripts/bundle.min.js"
MAIN, OTHER = (7, 1), (9, 1)  # (pid, tid): the page's main thread, another renderer


def span(name, ts, dur, thread=MAIN, tdur=None, **data):
    event = {"ph": "X", "name": name, "ts": ts, "dur": dur, "tdur": tdur or dur}
    event["pid"], event["tid"] = thread
    if data:
        event["args"] = {"data": data}
    return event


def painted(ts, pid=MAIN[0]):
    name = "PaintTimingVisualizer::LayoutObjectPainted"
    return {"ph": "I", "name": name, "pid": pid, "ts": ts}


def fcp(ts):
    return {"ph": "I", "name": "firstContentfulPaint", "pid": MAIN[0], "ts": ts}


def trace():
    """Two threads named CrRendererMain; only the one that painted is the page's.
    Times in microseconds, as in Chromium's traces."""
    meta = [
        {"ph": "M", "name": "thread_name", "pid": p, "tid": t}
        | {"args": {"name": "CrRendererMain"}}
        for p, t in (MAIN, OTHER)
    ]
    return [
        *meta,
        fcp(1),
        # 40 ms: the bundle runs (30 ms, 10 of them restyling the page), GC 5 ms
        span("RunTask", 1000, 40_000, tdur=30_000),
        span("EvaluateScript", 2000, 30_000, url=BUNDLE),
        span("UpdateLayoutTree", 10_000, 10_000),
        span("MinorGC", 33_000, 5000),
        # 30 ms: the page laid out (20) and parsed (8), so Lighthouse doubles it
        span("RunTask", 50_000, 30_000),
        span("ParseHTML", 50_000, 8000, url=PAGE),
        span("Layout", 60_000, 20_000),
        # 15 ms of script: four times over, 60 ms
        span("RunTask", 90_000, 15_000),
        span("FunctionCall", 90_000, 15_000, url=BUNDLE),
        # not the page's main thread, and an event outside any task
        span("RunTask", 1000, 90_000, thread=OTHER),
        span("Layout", 200_000, 50_000),
    ]


def report(*durations_and_urls):
    items = [{"duration": d, "url": u, "startTime": 0} for d, u in durations_and_urls]
    return {
        "configSettings": {
            "throttlingMethod": "simulate",
            "throttling": {"cpuSlowdownMultiplier": 4},
        },
        "audits": {"long-tasks": {"details": {"items": items}}},
    }


def test_the_tasks_of_the_page_main_thread_with_what_each_ran():
    tasks = main_thread_tasks(trace())
    found = [(t.ms, t.cpu_ms, t.layout) for t in tasks]
    assert found == [(40, 30, False), (30, 30, True), (15, 15, False)]
    script = "Script Evaluation (bundle.min.js)"
    assert [dict(t.ran) for t in tasks] == [
        {"Other": 5, script: 20, "Style & Layout": 10, "Garbage Collection": 5},
        {"Other": 2, "Parse HTML & CSS": 8, "Style & Layout": 20},
        {"Other": 0, script: 15},
    ]


def test_a_page_below_the_margin_prints_its_three_longest_tasks():
    # Lighthouse's list, as its long-tasks audit gives it (not in order)
    lighthouse = report((60, BUNDLE), (160, BUNDLE), (55, PAGE), (60, PAGE))
    lines = long_task_lines("cost", MARGIN - 1, long_tasks(lighthouse, trace()))
    assert lines == [
        f"cost ({MARGIN - 1}): its longest tasks, as Lighthouse counts them",
        "    160 ms  bundle.min.js (took 40 ms, CPU 30): Script Evaluation "
        "(bundle.min.js) 20, Style & Layout 10, Other 5, Garbage Collection 5",
        "     60 ms  bundle.min.js (took 15 ms, CPU 15): "
        "Script Evaluation (bundle.min.js) 15",
        "     60 ms  cost (took 30 ms, CPU 30): Style & Layout 20, "
        "Parse HTML & CSS 8, Other 2",
    ]


def test_a_task_the_trace_does_not_have_prints_what_lighthouse_says():
    lighthouse = report((300, "Unattributable"))
    assert long_task_lines("cost", 90, long_tasks(lighthouse, trace())) == [
        "cost (90): its longest tasks, as Lighthouse counts them",
        "    300 ms  Unattributable",
    ]
    assert long_task_lines("cost", 90, long_tasks(lighthouse, None))[1:] == [
        "    300 ms  Unattributable"
    ]


def test_a_page_at_the_margin_prints_nothing_and_one_with_no_long_task_says_so():
    lighthouse = report((160, BUNDLE))
    assert long_task_lines("cost", MARGIN, long_tasks(lighthouse, trace())) == []
    assert long_task_lines("cost", MARGIN - 1, long_tasks(report(), trace()))[1:] == [
        "  none over 50 ms: what holds it back is not the main thread"
    ]


def test_a_first_frame_shown_long_after_the_page_painted_it_is_flagged():
    # painted at 20 ms, shown at 40 ms: as a rule; shown a second later: held
    assert first_frame_held_ms([painted(20_000), painted(30_000), fcp(40_000)]) == 20
    held = [painted(2000, pid=OTHER[0]), painted(20_000), fcp(1_020_000)]
    assert first_frame_held_ms(held) == 1000 > HELD_MS
    assert first_frame_held_ms([painted(20_000)]) == 0  # no paint counted: no claim
    figures = {"performance": 97, "accessibility": 100, "best-practices": 100}
    figures |= dict(seo=100, fcp=1.37, lcp=2.38, tbt=131.4, cls=0.0, style=412.3)
    figures |= dict(bytes=170_000, requests=15)
    assert row("cost", figures, [99, 97, 96], [20, 1000, 990]).split() == (
        "cost 97 100 100 100 1.4 2.4 131 412 0.00 166 15 99 97* 96*".split()
    )


# -- the trace at CPU time ----------------------------------------------------------


def test_each_main_thread_task_is_shortened_to_its_cpu_time_with_what_is_inside():
    events = trace()
    at_cpu = cpu_time_trace(events)
    assert events == trace()  # the trace given is left as it was
    tasks = main_thread_tasks(at_cpu)
    # the first task ran 30 of its 40 ms: 3/4 of it, and so does all inside it;
    # the others used all the time they took
    found = [(t.ms, t.cpu_ms, t.start) for t in tasks]
    assert found == [(30, 30, 1), (30, 30, 50), (15, 15, 90)]
    script = "Script Evaluation (bundle.min.js)"
    assert dict(tasks[0].ran) == {
        **{"Other": 3.75, script: 15, "Style & Layout": 7.5},
        "Garbage Collection": 3.75,
    }
    inside = [e for e in at_cpu if e.get("name") == "UpdateLayoutTree"][0]
    assert (inside["ts"], inside["dur"]) == (1000 + 9000 * 0.75, 7500)
    # another renderer's task, and anything outside a task, are untouched
    others = [e for e in at_cpu if (e.get("pid"), e.get("tid")) == OTHER]
    assert others == [e for e in trace() if (e.get("pid"), e.get("tid")) == OTHER]
    assert at_cpu[-1] == trace()[-1]
    # a task that used more CPU than it took (the clocks differ a little) stays
    long_cpu = [span("RunTask", 10, 100, tdur=120), *trace()[:3]]
    assert cpu_time_trace(long_cpu)[0]["dur"] == 100


def test_at_cpu_time_what_was_inside_a_task_stays_inside_it():
    """Whole microseconds, each event within its task: Lighthouse stops on a child
    that ends a fraction of a microsecond after its parent, and a third of 100 is
    not a whole number. An event that ran past its task is cut at the task's end."""
    meta = trace()[:3]  # the threads' names and the first paint
    task = span("RunTask", 1000, 100, tdur=33)
    child = span("Layout", 1010, 90)  # ends with its task
    overrun = span("Paint", 1050, 80)  # ends 30 us after its task
    moved = cpu_time_trace([*meta, task, child, overrun])[3:]
    assert [(e["ts"], e["dur"]) for e in moved] == [(1000, 33), (1003, 30), (1016, 17)]
    for event in moved:
        assert isinstance(event["ts"], int) and isinstance(event["dur"], int)


def test_a_trace_with_no_painted_page_is_left_as_it_was():
    events = [e for e in trace() if e.get("name") != "firstContentfulPaint"]
    assert cpu_time_trace(events) == events


def test_style_and_layout_time_is_lighthouses_group_of_that_name():
    items = [
        {"group": "styleLayout", "duration": 412.5},
        {"group": "scriptEvaluation", "duration": 900.0},
    ]
    report = {"audits": {"mainthread-work-breakdown": {"details": {"items": items}}}}
    assert style_layout_ms(report) == 412.5
    assert style_layout_ms({"audits": {}}) == 0


# -- bare Material, in the same run -----------------------------------------------


def test_the_runs_interleave_bare_material_with_the_pages_in_rounds():
    assert schedule(["a", "b", "c"], 2, 2) == [
        *(BARE, "a", "b", BARE, "c", "a", BARE, "b", "c", BARE),
    ]
    assert schedule(["a"], 3, 1) == [BARE, "a", BARE, "a", BARE, "a", BARE]
    assert schedule(["a", "b"], 2, None) == ["a", "b", "a", "b"]


def test_a_page_is_divided_by_the_bare_runs_beside_its_runs():
    runs = [
        (BARE, 100.0),
        ("a", 150.0),
        ("b", 100.0),
        (BARE, 300.0),
        ("a", 600.0),
        (BARE, 900.0),  # a busy moment
        ("b", 400.0),
        ("a", 210.0),
        (BARE, 200.0),
    ]
    # a: median 210 over the bare runs 100, 300, 900, 200 (median 250)
    # b: median 250 over the bare runs 100, 300, 900, 200
    assert bare_ratios(runs) == {"a": 210 / 250, "b": 250 / 250}
    # the bare runs beside a page's runs only: c's are 300 and 900
    assert bare_ratios(runs[:5] + [("c", 60.0)] + runs[5:])["c"] == 60 / 600
    # a bare median of 0 (no blocking at all), or no bare run: no ratio
    assert bare_ratios([(BARE, 0.0), ("a", 50.0), (BARE, 0.0)]) == {"a": None}
    assert bare_ratios([("a", 50.0)]) == {"a": None}


def test_the_ratio_table_shows_what_it_has():
    figures = {"tbt": 268.4, "style": 589.0}
    cpu = {"performance": 100, "tbt": 38.2, "style": 301.4}
    assert ratio_row(
        "training", figures, {"tbt": 1.714, "style": 1.03}, cpu
    ).split() == ("training 268 1.71 589 1.03 100 38 301".split())
    assert ratio_row("training", figures, {"tbt": None}, cpu).split() == (
        "training 268 - 589 - 100 38 301".split()
    )


def test_bare_material_is_the_site_without_its_extras():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), _ConfigLoader)
    bare = bare_config(config, Path("/docs"))
    # none of the site's own: hooks, CSS, JavaScript, templates, plugins
    for extra in ("hooks", "extra_css", "extra_javascript"):
        assert config[extra] and extra not in bare
    assert "custom_dir" in config["theme"] and "custom_dir" not in bare["theme"]
    assert bare["plugins"] == ["search"]
    # the same theme, prose, nav and address
    theme = {k: v for k, v in config["theme"].items() if k != "custom_dir"}
    assert bare["theme"] == theme
    for same in ("markdown_extensions", "nav", "site_url", "exclude_docs"):
        assert bare[same] == config[same]
    assert bare["docs_dir"] == "/docs"
    # the tags resolved: the snippets' base path is the repository
    snippets = [e for e in bare["markdown_extensions"] if "pymdownx.snippets" in e]
    assert snippets[0]["pymdownx.snippets"]["base_path"] == str(ROOT)
