"""Lighthouse on every page of a fresh build: `make audit` prints a table.

The site is built strictly (as the browser suite builds it) and served on 127.0.0.1
under site_url's path, gzip-compressed as any real host (GitHub Pages included)
serves it. Lighthouse 12.2.3 (node_modules, pinned in package-lock.json) drives
the browser suite's Chromium (scripts/find_chromium.py) with the mobile profile,
its default. Goal, on every page: accessibility, best practices and SEO 100,
performance at least 95; the site keeps a margin, 98 or more, so that 95 holds on
a slower or busier machine of the same kind.

    .venv/bin/python -m scripts.audit [--desktop] [--check] [--keep DIR]
                                       [--runs N] [--page PATH ...] [--site DIR]

--check exits 1 when a page misses the goal; --keep saves each page's Lighthouse
report and trace (the run shown: open the trace in DevTools' Performance panel);
--runs N audits each page N times and shows the run with the median performance
(Lighthouse's own advice: one run on a busy machine is noisy; `make audit` runs
3); --page audits only the pages given ("" or "index" is the start page,
"one-head" another); --site audits a site already built there (to try a change to
the HTML or CSS by hand) instead of building.

A page below the margin gets its three longest main-thread tasks printed, as
Lighthouse counts them (Total Blocking Time is what each runs over 50 ms), with
what each ran, from the trace: the time in each of Lighthouse's task groups (style
and layout, script evaluation with the script, parsing, ...). Lighthouse's mobile
profile counts a task four times as long as it took (twice, if it laid out the
page); the CPU time beside it says how much of that the page itself spent: on a
busy machine a task also waits for the processor. The load average is printed
before and after: compare runs only at similar loads. A run marked * had its first
frame held by Chromium after the page had painted it (first_frame_held_ms): its FCP
and LCP say more about the machine than about the page.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hooks.build import build, page_id, serve, site_pages
from hooks.pages import ROOT
from scripts.find_chromium import CHROMIUM_ARGS, NoChromium, chromium

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
GOAL = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
MARGIN = 98  # a page below this performance gets its longest tasks printed
LONG_TASKS = 3


def lighthouse(url: str, desktop: bool, out: Path) -> dict:
    """Lighthouse's report on `url`; its trace is left in `out` (trace_path)."""
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    command = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={out / 'report.json'}",
        "--save-assets",  # the trace (and DevTools log) beside the report
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
    ]
    if desktop:
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": str(chromium())}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{result.stderr[-2000:]}")
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def trace_path(out: Path) -> Path:
    return out / "report-0.trace.json"


# -- what the long tasks ran, from the trace -------------------------------------

# Lighthouse's task groups (core/lib/tracehouse/task-groups.js): an event of no
# group belongs to its parent's; the time a task spent in none is "Other".
GROUPS = {
    "Parse HTML & CSS": ["ParseHTML", "ParseAuthorStyleSheet"],
    "Style & Layout": [
        "ScheduleStyleRecalculation",
        "UpdateLayoutTree",
        "InvalidateLayout",
        "Layout",
    ],
    "Rendering": [
        "Animation",
        "HitTest",
        "PaintSetup",
        "Paint",
        "PaintImage",
        "RasterTask",
        "ScrollLayer",
        "UpdateLayer",
        "UpdateLayerTree",
        "CompositeLayers",
        "PrePaint",
    ],
    "Script Parsing & Compilation": [
        "v8.compile",
        "v8.compileModule",
        "v8.parseOnBackground",
    ],
    "Script Evaluation": [
        "EventDispatch",
        "EvaluateScript",
        "v8.evaluateModule",
        "FunctionCall",
        "TimerFire",
        "FireIdleCallback",
        "FireAnimationFrame",
        "RunMicrotasks",
        "V8.Execute",
    ],
    "Garbage Collection": [
        "MinorGC",
        "MajorGC",
        "BlinkGC.AtomicPhase",
    ],
}
GROUP_OF = {name: group for group, names in GROUPS.items() for name in names}
SCRIPT_GROUPS = ("Script Evaluation", "Script Parsing & Compilation")


@dataclass
class Task:
    """A top-level task of the page's main thread, as the trace saw it."""

    ms: float  # how long it took (wall clock), what Lighthouse scales
    cpu_ms: float  # of which the main thread ran
    layout: bool  # it laid out the page (Lighthouse scales it less)
    ran: Counter = field(default_factory=Counter)  # "group" or "group (script)": ms
    urls: set = field(default_factory=set)  # the scripts and documents it ran


def url_of(event: dict) -> str:
    args = event.get("args", {})
    data = args.get("data") or args.get("beginData") or {}
    return data.get("url") or args.get("fileName") or ""


def short(url: str) -> str:
    """A script or page by its last part: bundle.min.js, cost."""
    return url.split("?")[0].rstrip("/").rsplit("/", 1)[-1] or url


def main_thread_tasks(events: list[dict]) -> list[Task]:
    """The top-level tasks ("RunTask") of the renderer's main thread that painted the
    page, each with the time it spent in each task group: an event's own time, not
    that of the events inside it, so nothing is counted twice."""
    painted = {e["pid"] for e in events if e.get("name") == "firstContentfulPaint"}
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("args", {}).get("name") == "CrRendererMain"
        and e["pid"] in painted
    }
    spans = [e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in main]
    spans.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
    tasks: list[Task] = []
    # the events the current one is inside: (end, group, script, label)
    enclosing: list[tuple[float, str | None, str, str]] = []
    for event in spans:
        start, ms = event["ts"], event.get("dur", 0) / 1000
        while enclosing and enclosing[-1][0] <= start:
            enclosing.pop()
        if not enclosing:
            if event["name"] != "RunTask":
                continue  # outside any task: nothing Lighthouse counts
            tasks.append(Task(ms, event.get("tdur", 0) / 1000, False))
        _, group, script, parent = enclosing[-1] if enclosing else (0, None, "", "")
        group = GROUP_OF.get(event["name"], group)
        url = url_of(event)
        script = short(url) if url else script
        label = group or "Other"
        if label in SCRIPT_GROUPS and script:
            label = f"{label} ({script})"
        task = tasks[-1]
        if url:
            task.urls.add(url)
        task.ran[label] += ms
        if parent:
            task.ran[parent] -= ms  # the parent's own time excludes this event's
        task.layout |= event["name"] == "Layout"
        enclosing.append((start + ms * 1000, group, script, label))
    return tasks


HELD_MS = 250  # a first frame shown this long after the page painted it was held


def first_frame_held_ms(events: list[dict]) -> float:
    """How long after the page painted its first content Chromium showed it (which
    is when first contentful paint counts). A few milliseconds, as a rule; on a busy
    machine, once in a few runs, about a second, whatever the page: the renderer
    painted in time and the frame waited, and Lighthouse then counts that second in
    FCP and LCP (cost's LCP 1.4 s became 2.4 s)."""
    fcp = [e for e in events if e.get("name") == "firstContentfulPaint"]
    if not fcp:
        return 0.0
    painted = [
        e["ts"]
        for e in events
        if e.get("name") == "PaintTimingVisualizer::LayoutObjectPainted"
        and e.get("pid") == fcp[0]["pid"]
        and e["ts"] <= fcp[0]["ts"]
    ]
    return (fcp[0]["ts"] - min(painted)) / 1000 if painted else 0.0


def long_tasks(report: dict, events: list[dict] | None) -> list[dict]:
    """The longest tasks as Lighthouse reports them (its long-tasks audit: the task
    times the CPU slowdown it simulates, and the script it blames), each with the
    trace's Task it is (same scaled duration), when a trace is at hand."""
    items = report["audits"].get("long-tasks", {}).get("details", {}).get("items", [])
    items = sorted(items, key=lambda i: -i["duration"])[:LONG_TASKS]
    settings = report.get("configSettings", {})
    slowdown, layout_slowdown = 1, 1  # Lighthouse's observed throttling: as it ran
    if settings.get("throttlingMethod") == "simulate":  # Lantern's CPU slowdown
        slowdown = settings.get("throttling", {}).get("cpuSlowdownMultiplier", 1)
        layout_slowdown = slowdown / 2  # a task that lays out counts half as much
    found = main_thread_tasks(events) if events else []

    def scaled(task: Task) -> float:
        return round(task.ms * (layout_slowdown if task.layout else slowdown))

    out = []
    for item in items:
        # the trace's task of the same scaled time, one that ran the script (or
        # page) Lighthouse blames first
        same = [t for t in found if abs(scaled(t) - item["duration"]) <= 1]
        same.sort(key=lambda t: item["url"] not in t.urls)
        if same:
            found = [t for t in found if t is not same[0]]
        out.append(
            {"ms": item["duration"], "url": item["url"], "task": next(iter(same), None)}
        )
    return out


def long_task_lines(page: str, performance: int, tasks: list[dict]) -> list[str]:
    """What to print for a page: nothing at or above the margin."""
    if performance >= MARGIN:
        return []
    lines = [f"{page} ({performance}): its longest tasks, as Lighthouse counts them"]
    if not tasks:
        lines.append("  none over 50 ms: what holds it back is not the main thread")
    for t in tasks:
        line = f"  {t['ms']:5.0f} ms  {short(t['url'])}"
        task = t["task"]
        if task is not None:
            ran = ", ".join(
                f"{what} {ms:.0f}" for what, ms in task.ran.most_common() if ms >= 0.5
            )
            line += f" (took {task.ms:.0f} ms, CPU {task.cpu_ms:.0f}): {ran}"
        lines.append(line)
    return lines


def summary(report: dict) -> dict:
    scores = {c: round(100 * report["categories"][c]["score"]) for c in CATEGORIES}
    audits = report["audits"]
    # what keeps a category below its goal: its weighted audits that did not pass
    reasons = []
    for c in CATEGORIES:
        if scores[c] >= GOAL[c]:
            continue
        for ref in report["categories"][c]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                shown = audit.get("displayValue", "")
                reasons.append(f"{c}: {audit['title']} {shown}".strip())
    return {
        **scores,
        "bytes": audits["total-byte-weight"]["numericValue"],
        "requests": len(audits["network-requests"]["details"]["items"]),
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "reasons": reasons,
    }


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f} (1, 5, 15 min), {} cores".format(
        *os.getloadavg(), os.cpu_count()
    )


HEADER = (
    f"{'page':<26}{'perf':>5}{'a11y':>5}{'best':>5}{'seo':>5}"
    f"{'FCP s':>7}{'LCP s':>7}{'TBT ms':>8}{'CLS':>6}{'KB':>6}{'req':>5}  runs"
)


def row(page: str, s: dict, scores: list[int], held: list[float]) -> str:
    """The median run's figures; each run's performance (* when its first frame
    was held, see first_frame_held_ms)."""
    runs = " ".join(
        f"{p}{'*' * (h > HELD_MS)}" for p, h in zip(scores, held, strict=True)
    )
    return (
        f"{page:<26}{s['performance']:>5}{s['accessibility']:>5}"
        f"{s['best-practices']:>5}{s['seo']:>5}{s['fcp']:>7.1f}{s['lcp']:>7.1f}"
        f"{s['tbt']:>8.0f}{s['cls']:>6.2f}{s['bytes'] / 1024:>6.0f}"
        f"{s['requests']:>5}  {runs}"
    )


def page_path(page: str) -> str:
    """A page as the site serves it: "" for the start page, "one-head/" for another."""
    page = page.strip("/")
    return "" if page in ("", "index") else page + "/"


@dataclass
class Audit:
    report: dict  # the median run's
    scores: list[int]  # every run's performance
    held: list[float]  # every run's first_frame_held_ms
    tasks: list[dict]  # the median run's long tasks, when it is below the margin


def audit_page(base: str, path: str, args) -> Audit:
    """Lighthouse `args.runs` times on the page; the run with the median
    performance, and what its trace says."""
    with tempfile.TemporaryDirectory(prefix="heads-audit-") as tmp:
        reports, held = [], []
        for i in range(args.runs):
            out = Path(tmp, f"run{i}")
            out.mkdir()
            reports.append(lighthouse(base + path, args.desktop, out))
            trace = json.loads(trace_path(out).read_text(encoding="utf-8"))
            held.append(first_frame_held_ms(trace["traceEvents"]))
        scores = [round(100 * r["categories"]["performance"]["score"]) for r in reports]
        median = scores.index(statistics.median_low(scores))
        report, out = reports[median], Path(tmp, f"run{median}")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / f"{page_id(path)}.json").write_text(json.dumps(report))
            shutil.copy(trace_path(out), args.keep / f"{page_id(path)}.trace.json")
        tasks = []
        if scores[median] < MARGIN:
            trace = json.loads(trace_path(out).read_text(encoding="utf-8"))
            tasks = long_tasks(report, trace["traceEvents"])
    return Audit(report, scores, held, tasks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--desktop", action="store_true", help="desktop profile")
    parser.add_argument("--check", action="store_true", help="exit 1 below goal")
    parser.add_argument("--keep", type=Path, help="save reports and traces here")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median)")
    parser.add_argument("--page", action="append", help="only this page (repeatable)")
    parser.add_argument("--site", type=Path, help="audit this built site, unbuilt")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` (make does it)")
    try:
        chromium()
    except NoChromium as error:
        sys.exit(str(error))

    site = args.site or build(Path(tempfile.mkdtemp(prefix="heads-audit-")))
    base, _ = serve(site, gzip=True)
    profile = "desktop" if args.desktop else "mobile"
    runs = f", median of {args.runs} runs" if args.runs > 1 else ""
    print(f"Lighthouse 12.2.3, {profile} profile, gzip{runs}, {base}")
    print(f"At the start: {load()}\n")
    print(HEADER)
    print("-" * len(HEADER))
    below, slow = [], []
    pages = site_pages(site) if args.page is None else map(page_path, args.page)
    held = 0
    for path in pages:
        audit = audit_page(base, path, args)
        s = summary(audit.report)
        print(row(page_id(path), s, audit.scores, audit.held), flush=True)
        if s["reasons"]:
            below.append((page_id(path), s["reasons"]))
        slow += long_task_lines(page_id(path), s["performance"], audit.tasks)
        held += sum(h > HELD_MS for h in audit.held)
    print(f"\nAt the end: {load()}")
    if held:
        print(
            f"* {held} runs: Chromium showed the first frame more than {HELD_MS} ms "
            "after the page had painted it (a busy machine, not the page); FCP and "
            "LCP count the wait"
        )
    if slow:
        print(f"\nBelow {MARGIN}, the longest tasks (Lighthouse's scaled time):")
        print("\n".join(slow))
    print()
    if not below:
        print("Goal met on every page: performance >= 95, the other three 100.")
        return 0
    print("Below goal:")
    for page, reasons in below:
        for reason in reasons:
            print(f"  {page}: {reason}")
    return 1 if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
