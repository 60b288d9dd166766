"""Lighthouse on every page of a fresh build, against bare Material in the same run:
`make audit` prints two tables.

    .venv/bin/python -m scripts.audit [--throttle X] [--runs N] [--page PATH ...]
        [--bare PAGE] [--bare-every K] [--desktop] [--check] [--keep DIR]
        [--site DIR]

Lighthouse 12.2.3 (node_modules) drives the browser suite's Chromium, mobile, with
the CPU slowed down --throttle times (8: a slow phone), on the strict build served
gzipped on 127.0.0.1. Goal: performance 95 or more (the site keeps MARGIN, 98, so
that 95 holds on a busier machine), the other three 100, and TBT at most
BARE_RATIO_GOAL times bare Material's. --runs N shows each page's median run (one run
on a busy machine is noisy); --page "" is the start page; --keep saves the median
runs' reports and traces (for DevTools) and runs.json; --site audits a built site.

Bare Material (bare_config: the same docs, theme and Markdown extensions, none of the
site's hooks, CSS, JavaScript or overrides) is audited between the pages' runs
(schedule), so that the machine's load falls on both alike: a page's TBT and Style &
Layout divided by those of the bare runs beside its runs (bare_ratios) hold from
machine to machine where scores do not. Lighthouse scales each task's wall-clock
time, a wait for a busy processor included (98 on an idle machine scored 80 under a
load of 6 on 2 cores), so each run is scored again with every task of the page at the
CPU time it used (cpu_time_trace). A page below MARGIN gets its longest tasks printed
(long_tasks); * marks a run whose first frame Chromium held (first_frame_held_ms).
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

import yaml

from scripts.find_chromium import CHROMIUM_ARGS, NoChromium, chromium
from tools.build import build, page_id, serve, site_pages
from tools.pages import ROOT

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
GOAL = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
BARE_RATIO_GOAL = 2.0  # a page's TBT at most this many times the bare page's
MARGIN = 98  # a page below this performance gets its longest tasks printed
LONG_TASKS = 3
THROTTLE = 8  # Lighthouse's CPU slowdown; its mobile default is 4
BARE_PAGE = "try-it"  # the prose of the bare Material page: a page of middle size
BARE_EVERY = 2  # a bare run after every this many page runs
BARE = "bare Material"  # the bare page's name in the tables


# -- Lighthouse --------------------------------------------------------------------


def run_lighthouse(what: list[str], report: Path, args) -> dict:
    """Lighthouse's report on what it gathers (a URL and `-GA=DIR`: what it gathered
    is left in DIR) or on what it gathered before (`-A=DIR`)."""
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    command = [
        str(LIGHTHOUSE),
        "--output=json",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
        f"--throttling.cpuSlowdownMultiplier={args.throttle:g}",
        *(["--preset=desktop"] if args.desktop else []),
        *what,
        f"--output-path={report}",
    ]
    env = {**os.environ, "CHROME_PATH": str(chromium())}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(
            f"lighthouse failed on {' '.join(what)}:\n{result.stderr[-2000:]}"
        )
    return json.loads(report.read_text(encoding="utf-8"))


def trace_path(out: Path) -> Path:
    return out / "defaultPass.trace.json"


def rescore(out: Path, events: list[dict], args) -> dict:
    """Lighthouse's report from what it gathered in `out`, with the trace's events
    replaced by `events` (in a copy: `out` is left as it was)."""
    with tempfile.TemporaryDirectory(prefix="heads-rescore-") as tmp:
        copy = Path(tmp, "artifacts")
        shutil.copytree(out, copy, ignore=shutil.ignore_patterns("report*.json"))
        trace = trace_path(copy)
        data = json.loads(trace.read_text(encoding="utf-8"))
        data["traceEvents"] = events
        trace.write_text(json.dumps(data), encoding="utf-8")
        return run_lighthouse([f"-A={copy}"], Path(tmp, "report.json"), args)


def main_thread(events: list[dict]) -> tuple[int, int] | None:
    """The (pid, tid) of the renderer's main thread that painted the page."""
    painted = {e["pid"] for e in events if e.get("name") == "firstContentfulPaint"}
    for e in events:
        if (
            e.get("ph") == "M"
            and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"
            and e["pid"] in painted
        ):
            return e["pid"], e["tid"]
    return None


def cpu_time_trace(events: list[dict]) -> list[dict]:
    """A copy of the trace with every top-level task of the page's main thread as
    long as the CPU time it used (`tdur`), not the wall-clock time it took (`dur`):
    what was inside a task is moved and shortened with it, and cut at its end."""
    thread = main_thread(events)
    out = [dict(e) for e in events]
    if thread is None:
        return out
    own = sorted(
        (e for e in out if (e.get("pid"), e.get("tid")) == thread and "ts" in e),
        key=lambda e: (e["ts"], -e.get("dur", 0)),
    )
    start, end, factor = 0, -1, 1.0  # the current top-level task

    def moved(t: float) -> int:
        # whole microseconds: Lighthouse stops on an event that ends a fraction of
        # a microsecond after its parent
        return round(start + (min(t, end) - start) * factor)

    for event in own:
        ts = event["ts"]
        if ts >= end:  # not inside the current task
            if event.get("ph") != "X" or not event.get("dur"):
                continue
            start, end = ts, ts + event["dur"]
            factor = min(1.0, event.get("tdur", event["dur"]) / event["dur"])
        event["ts"] = moved(ts)
        if "dur" in event:
            event["dur"] = moved(ts + event["dur"]) - event["ts"]
    return out


# -- what the long tasks ran, from the trace -------------------------------------

# Lighthouse's task groups (core/lib/tracehouse/task-groups.js): an event of no
# group belongs to its parent's; the time a task spent in none is "Other".
GROUPS = {
    "Parse HTML & CSS": "ParseHTML ParseAuthorStyleSheet",
    "Style & Layout": "ScheduleStyleRecalculation UpdateLayoutTree InvalidateLayout"
    " Layout",
    "Rendering": "Animation HitTest PaintSetup Paint PaintImage RasterTask ScrollLayer"
    " UpdateLayer UpdateLayerTree CompositeLayers PrePaint",
    "Script Parsing & Compilation": "v8.compile v8.compileModule v8.parseOnBackground",
    "Script Evaluation": "EventDispatch EvaluateScript v8.evaluateModule FunctionCall"
    " TimerFire FireIdleCallback FireAnimationFrame RunMicrotasks V8.Execute",
    "Garbage Collection": "MinorGC MajorGC BlinkGC.AtomicPhase",
}
GROUP_OF = {name: group for group, names in GROUPS.items() for name in names.split()}
SCRIPT_GROUPS = ("Script Evaluation", "Script Parsing & Compilation")


@dataclass
class Task:
    """A top-level task of the page's main thread, as the trace saw it."""

    ms: float  # how long it took (wall clock), what Lighthouse scales
    cpu_ms: float  # of which the main thread ran
    layout: bool  # it laid out the page (Lighthouse scales it less)
    ran: Counter = field(default_factory=Counter)  # "group" or "group (script)": ms
    urls: set = field(default_factory=set)  # the scripts and documents it ran
    start: float = 0.0  # when it started, in ms on the trace's clock


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
    main = main_thread(events)
    spans = [e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) == main]
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
            tasks.append(
                Task(ms, event.get("tdur", 0) / 1000, False, start=start / 1000)
            )
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
    """How long after the page painted its first content Chromium showed it (when
    FCP counts): a few ms as a rule, but on a busy machine, once in a few runs, about
    a second whatever the page (cost's LCP 1.4 s became 2.4 s)."""
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
        "style": style_layout_ms(report),
        "reasons": reasons,
    }


def style_layout_ms(report: dict) -> float:
    """The time the main thread spent in style and layout, as Lighthouse counts it
    (its main-thread work breakdown: times the CPU slowdown it simulates)."""
    work = report["audits"].get("mainthread-work-breakdown", {})
    items = work.get("details", {}).get("items", [])
    return sum(i["duration"] for i in items if i.get("group") == "styleLayout")


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f} (1, 5, 15 min), {} cores".format(
        *os.getloadavg(), os.cpu_count()
    )


HEADER = (
    f"{'page':<26}{'perf':>5}{'a11y':>5}{'best':>5}{'seo':>5}"
    f"{'FCP s':>7}{'LCP s':>7}{'TBT ms':>8}{'S&L ms':>8}{'CLS':>6}{'KB':>6}"
    f"{'req':>5}  runs"
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
        f"{s['tbt']:>8.0f}{s['style']:>8.0f}{s['cls']:>6.2f}{s['bytes'] / 1024:>6.0f}"
        f"{s['requests']:>5}  {runs}"
    )


# -- bare Material, in the same run ---------------------------------------------


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml's two tags: !ENV [NAME, default] and !relative (its folder)."""


def _env(loader, node):
    names = (
        loader.construct_sequence(node)
        if isinstance(node, yaml.SequenceNode)
        else [loader.construct_scalar(node)]
    )
    *variables, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[v] for v in variables if v in os.environ), default)


_ConfigLoader.add_constructor("!ENV", _env)
_ConfigLoader.add_constructor("!relative", lambda loader, node: str(ROOT))


EXTRAS = ("hooks", "extra_css", "extra_javascript", "watch")  # of mkdocs.yml


def bare_config(config: dict, docs: Path) -> dict:
    """The site's configuration with none of its extras: the same theme, Markdown
    extensions, nav and site_url; no hooks, CSS, JavaScript, overrides (custom_dir)
    or plugin but search."""
    bare = {k: v for k, v in config.items() if k not in EXTRAS}
    bare["theme"] = {k: v for k, v in config["theme"].items() if k != "custom_dir"}
    bare["plugins"] = ["search"]
    bare["docs_dir"] = str(docs)
    return bare


def build_bare_site(folder: Path) -> Path:
    """The docs built with bare_config into `folder`/site (not strict: the figures
    the site's hooks draw are missing, and pages link to them)."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _ConfigLoader)
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "mkdocs.yml"
    file.write_text(
        yaml.safe_dump(bare_config(config, ROOT / "docs"), sort_keys=False),
        encoding="utf-8",
    )
    site = folder / "site"
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--quiet"]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [*mkdocs, "-f", str(file), "--site-dir", str(site)]
    result = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, env=env
    )
    if result.returncode != 0:
        raise RuntimeError(f"the bare Material build failed:\n{result.stderr[-2000:]}")
    return site


def schedule(pages: list[str], runs: int, bare_every: int | None) -> list[str]:
    """The order of the runs: the pages in rounds (each once, then again), with a
    bare run (BARE) before the first page and after every `bare_every` pages, and
    one at the end; no bare run when `bare_every` is None."""
    order = []
    done = 0
    for _ in range(runs):
        for page in pages:
            if bare_every and done % bare_every == 0:
                order.append(BARE)
            order.append(page)
            done += 1
    if bare_every and order:
        order.append(BARE)
    return order


def bare_ratios(runs: list[tuple[str, float]]) -> dict[str, float | None]:
    """Each page's median over its runs divided by the median of the bare runs
    beside them (just before and just after each run): a bare run at a busy moment
    moves the reference by one place, not the page's ratio by its factor. None with
    no bare run, or a bare median of 0."""
    bare = [i for i, (page, _) in enumerate(runs) if page == BARE]
    values: dict[str, list[float]] = {}
    beside: dict[str, set[int]] = {}
    for i, (page, value) in enumerate(runs):
        if page == BARE:
            continue
        values.setdefault(page, []).append(value)
        before = [j for j in bare if j < i][-1:]
        after = [j for j in bare if j > i][:1]
        beside.setdefault(page, set()).update(before + after)
    ratios: dict[str, float | None] = {}
    for page, found in values.items():
        reference = median([runs[j][1] for j in sorted(beside[page])])
        ratios[page] = statistics.median(found) / reference if reference else None
    return ratios


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# -- a run, a page --------------------------------------------------------------


@dataclass
class Run:
    report: dict  # Lighthouse's, as it measured
    cpu: dict  # Lighthouse's, from the trace with tasks at their CPU time
    held: float  # first_frame_held_ms
    out: Path  # what Lighthouse gathered (the trace among it)


def audit_run(url: str, out: Path, args) -> Run:
    out.mkdir(parents=True)
    report = run_lighthouse([url, f"-GA={out}"], out / "report.json", args)
    events = json.loads(trace_path(out).read_text(encoding="utf-8"))["traceEvents"]
    cpu = rescore(out, cpu_time_trace(events), args)
    for name in ("artifacts.json", "defaultPass.devtoolslog.json"):
        (out / name).unlink(missing_ok=True)  # kept: the trace and the report
    return Run(report, cpu, first_frame_held_ms(events), out)


def performance(report: dict) -> int:
    return round(100 * report["categories"]["performance"]["score"])


@dataclass
class Audit:
    report: dict  # the median run's
    scores: list[int]  # every run's performance
    held: list[float]  # every run's first_frame_held_ms
    tasks: list[dict]  # the median run's long tasks, when it is below the margin
    cpu: dict  # the median (over runs) of the CPU-time figures
    trace: Path  # the median run's


def page_audit(runs: list[Run]) -> Audit:
    """The run with the median performance, and what its trace says; the median
    over the runs of what they score at CPU time."""
    scores = [performance(r.report) for r in runs]
    middle = runs[scores.index(statistics.median_low(scores))]
    tasks = []
    if performance(middle.report) < MARGIN:
        trace = json.loads(trace_path(middle.out).read_text(encoding="utf-8"))
        tasks = long_tasks(middle.report, trace["traceEvents"])
    cpu = [summary(r.cpu) for r in runs]
    cpu_median = {
        k: median([c[k] for c in cpu]) for k in ("performance", "tbt", "style")
    }
    held = [r.held for r in runs]
    return Audit(middle.report, scores, held, tasks, cpu_median, trace_path(middle.out))


RATIO_HEADER = (
    f"{'page':<26}{'TBT ms':>8}{'x bare':>8}{'S&L ms':>8}{'x bare':>8}"
    f"   {'at CPU time:':<13}{'perf':>5}{'TBT ms':>8}{'S&L ms':>8}"
)


def ratio_row(page: str, s: dict, ratios: dict, cpu: dict) -> str:
    """A page's TBT and Style & Layout against the bare page's (the median of its
    runs' ratios), then its figures at CPU time (the medians over its runs)."""

    def times(value):
        return f"{value:>8.2f}" if value is not None else f"{'-':>8}"

    return (
        f"{page:<26}{s['tbt']:>8.0f}{times(ratios.get('tbt'))}{s['style']:>8.0f}"
        f"{times(ratios.get('style'))}   {'':<13}{cpu['performance']:>5.0f}"
        f"{cpu['tbt']:>8.0f}{cpu['style']:>8.0f}"
    )


def page_path(page: str) -> str:
    """A page as the site serves it: "" for the start page, "one-head/" for another."""
    page = page.strip("/")
    return "" if page in ("", "index") else page + "/"


def measure(urls: dict[str, str], order: list[str], tmp: Path, args):
    """Every run in `order`: each page's runs, and all of them in the order made."""
    done: dict[str, list[Run]] = {}
    sequence: list[tuple[str, Run]] = []
    for i, page in enumerate(order):
        run = audit_run(urls[page], tmp / f"run{i:03}", args)
        done.setdefault(page, []).append(run)
        sequence.append((page, run))
        score = performance(run.report)
        print(f"  {i + 1}/{len(order)} {page}: {score}", file=sys.stderr, flush=True)
    return done, sequence


def page_ratios(sequence: list[tuple[str, Run]]) -> dict[str, dict[str, float]]:
    """Each page's bare_ratios of TBT and of Style & Layout (not of the CPU-time TBT:
    the bare page's is often 0 to 10 ms, too small to divide by)."""
    ratios: dict[str, dict[str, float]] = {}
    for key in ("tbt", "style"):
        runs = [(page, summary(run.report)[key]) for page, run in sequence]
        for page, ratio in bare_ratios(runs).items():
            ratios.setdefault(page, {})[key] = ratio
    return ratios


def keep(folder: Path, name: str, audit: Audit) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(audit.report))
    shutil.copy(audit.trace, folder / f"{name}.trace.json")


def run_figures(sequence: list[tuple[str, Run]]) -> list[dict]:
    """Every run's figures, in the order made (kept as runs.json with --keep)."""
    return [
        {
            "page": page,
            **{k: summary(run.report)[k] for k in ("performance", "tbt", "style")},
            "lcp": summary(run.report)["lcp"],
            **{f"cpu_{k}": summary(run.cpu)[k] for k in ("performance", "tbt")},
            "held": run.held > HELD_MS,
        }
        for page, run in sequence
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--throttle", type=float, default=THROTTLE, help="CPU slowdown")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median)")
    parser.add_argument("--page", action="append", help="only this page (repeatable)")
    parser.add_argument("--bare", default=BARE_PAGE, help="bare page's prose, or ''")
    parser.add_argument("--bare-every", type=int, default=BARE_EVERY, help="pages")
    parser.add_argument("--desktop", action="store_true", help="desktop profile")
    parser.add_argument("--check", action="store_true", help="exit 1 below goal")
    parser.add_argument("--keep", type=Path, help="save reports and traces here")
    parser.add_argument("--site", type=Path, help="audit this built site, unbuilt")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` (make does it)")
    try:
        chromium()
    except NoChromium as error:
        sys.exit(str(error))

    with tempfile.TemporaryDirectory(prefix="heads-audit-") as folder:
        tmp = Path(folder)
        site = args.site or build(tmp / "site")
        base, _ = serve(site, gzip=True)
        paths = site_pages(site) if args.page is None else map(page_path, args.page)
        urls = {page_id(path): base + path for path in paths}
        pages = list(urls)
        if args.bare:
            bare_base, _ = serve(build_bare_site(tmp / "bare"), gzip=True)
            urls[BARE] = bare_base + page_path(args.bare)
        profile = "desktop" if args.desktop else "mobile"
        runs = f", median of {args.runs} runs" if args.runs > 1 else ""
        print(
            f"Lighthouse 12.2.3, {profile} profile, CPU slowdown {args.throttle:g}, "
            f"gzip{runs}, {base}"
        )
        if args.bare:
            print(f"Bare Material: {args.bare}'s prose, {urls[BARE]}")
        print(f"At the start: {load()}\n", flush=True)
        every = args.bare_every if args.bare else None
        done, sequence = measure(urls, schedule(pages, args.runs, every), tmp, args)
        audits = {name: page_audit(runs) for name, runs in done.items()}
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            figures = json.dumps(run_figures(sequence), indent=1)
            (args.keep / "runs.json").write_text(figures, encoding="utf-8")
        return report(pages, audits, page_ratios(sequence), args)


def report(pages: list[str], audits: dict, ratios: dict, args) -> int:
    """The tables, the longest tasks, and what is below goal."""
    print(HEADER)
    print("-" * len(HEADER))
    below, slow, held = [], [], 0
    for name in pages + ([BARE] if args.bare else []):
        audit = audits[name]
        s = summary(audit.report)
        print(row(name, s, audit.scores, audit.held))
        if args.keep:  # bare Material's too, to compare the traces
            keep(args.keep, name.replace(" ", "-"), audit)
        if name == BARE:
            continue
        if s["reasons"]:
            below.append((name, s["reasons"]))
        slow += long_task_lines(name, s["performance"], audit.tasks)
        held += sum(h > HELD_MS for h in audit.held)
    if args.bare:
        print(
            f"\nAgainst bare Material ({args.bare}'s prose): each page's median "
            "divided by that of the bare runs beside its runs"
        )
        print(RATIO_HEADER)
        print("-" * len(RATIO_HEADER))
        for name in [*pages, BARE]:
            s = summary(audits[name].report)
            print(ratio_row(name, s, ratios.get(name, {}), audits[name].cpu))
            over = (ratios.get(name, {}).get("tbt") or 0) > BARE_RATIO_GOAL
            if name != BARE and over:
                times = f"{ratios[name]['tbt']:.2f}"
                below.append((name, [f"TBT {times} x bare Material's"]))
    print(f"\nAt the end: {load()}")
    if held:
        print(
            f"* {held} runs: Chromium showed the first frame more than {HELD_MS} ms"
            " after the page had painted it (a busy machine, not the page); FCP"
            " and LCP count the wait"
        )
    if slow:
        print(f"\nBelow {MARGIN}, the longest tasks (Lighthouse's scaled time):")
        print("\n".join(slow))
    print()
    if not below:
        bare = (
            f", TBT at most {BARE_RATIO_GOAL:g} x bare Material's" if args.bare else ""
        )
        print(f"Goal met on every page: performance >= 95, the other three 100{bare}.")
        return 0
    print("Below goal:")
    for page, reasons in below:
        for reason in reasons:
            print(f"  {page}: {reason}")
    return 1 if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
