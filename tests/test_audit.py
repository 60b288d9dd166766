"""scripts/audit.py's account of a slow page, on a made-up Lighthouse report and
trace (no Lighthouse runs here): its longest tasks, scaled as Lighthouse scales
them, each matched to the trace's task and what that task ran."""

from scripts.audit import (
    HELD_MS,
    MARGIN,
    first_frame_held_ms,
    long_task_lines,
    long_tasks,
    main_thread_tasks,
    row,
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


def trace():
    """Two threads named CrRendererMain; only the one that painted is the page's.
    Times in microseconds, as in Chromium's traces."""
    meta = [
        {"ph": "M", "name": "thread_name", "pid": p, "tid": t}
        | {"args": {"name": "CrRendererMain"}}
        for p, t in (MAIN, OTHER)
    ]
    paint = {"ph": "I", "name": "firstContentfulPaint", "pid": MAIN[0], "ts": 1}
    return [
        *meta,
        paint,
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
    assert [(t.ms, t.cpu_ms, t.layout) for t in tasks] == [
        (40, 30, False),
        (30, 30, True),
        (15, 15, False),
    ]
    script = "Script Evaluation (bundle.min.js)"
    assert dict(tasks[0].ran) == {
        "Other": 5,
        script: 20,
        "Style & Layout": 10,
        "Garbage Collection": 5,
    }
    assert dict(tasks[1].ran) == {
        "Other": 2,
        "Parse HTML & CSS": 8,
        "Style & Layout": 20,
    }
    assert dict(tasks[2].ran) == {"Other": 0, script: 15}


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


def painted(ts, pid=MAIN[0]):
    return {"ph": "I", "name": "PaintTimingVisualizer::LayoutObjectPainted"} | {
        "pid": pid,
        "ts": ts,
    }


def fcp(ts):
    return {"ph": "I", "name": "firstContentfulPaint", "pid": MAIN[0], "ts": ts}


def test_a_first_frame_shown_long_after_the_page_painted_it_is_flagged():
    # painted at 20 ms, shown at 40 ms: as a rule; shown a second later: held
    assert first_frame_held_ms([painted(20_000), painted(30_000), fcp(40_000)]) == 20
    held = [painted(2000, pid=OTHER[0]), painted(20_000), fcp(1_020_000)]
    assert first_frame_held_ms(held) == 1000 > HELD_MS
    assert first_frame_held_ms([painted(20_000)]) == 0  # no paint counted: no claim
    figures = {
        "performance": 97,
        "accessibility": 100,
        "best-practices": 100,
        "seo": 100,
        "fcp": 1.37,
        "lcp": 2.38,
        "tbt": 131.4,
        "cls": 0.0,
        "bytes": 170_000,
        "requests": 15,
    }
    assert row("cost", figures, [99, 97, 96], [20, 1000, 990]).split() == (
        "cost 97 100 100 100 1.4 2.4 131 0.00 166 15 99 97* 96*".split()
    )
