"""How long `mkdocs serve` takes to rebuild after a one-line edit (EDITS).

    .venv/bin/python -m scripts.rebuild_times [--repeat N]

In a throwaway copy of the site's sources (its .cache/ linked: nothing is trained
again), it does what `mkdocs serve` does on every change: load mkdocs.yml afresh
and build, in one process whose hooks were told they are serving. Like `make
serve`, it skips htmlproofer unless HEADS_CHECK_HTML=true. A measurement, not a
test: the times depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path

from tools.build import copy_sources

EDIT = "# edited\n"
EDITS = [  # (what is edited, the file, the line appended)
    ("a page (docs/cost.md)", "docs/cost.md", "\nOne more sentence.\n"),
    ("a snippet no figure imports", "snippets/cost/ex02_flops.py", EDIT),
    ("a figure's snippet", "snippets/one_head/ex05_heatmap.py", EDIT),
    # a snippet the saved training runs do not depend on
    ("a training figure's snippet", "snippets/training/ex08_loss_curves.py", EDIT),
    ("the shared inputs", "snippets/attention_inputs.py", EDIT),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="edits per kind")
    args = parser.parse_args()
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    os.environ.setdefault("HEADS_CHECK_HTML", "false")  # as `make serve` runs
    logging.disable(logging.WARNING)  # mkdocs' INFO lines and the EOL banner

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    with tempfile.TemporaryDirectory(prefix="heads-rebuild-") as folder:
        root = copy_sources(Path(folder) / "src")
        site = Path(folder) / "site"
        os.chdir(root)

        def rebuild() -> tuple[float, float]:
            wall, cpu = time.perf_counter(), time.process_time()
            config = load_config(str(root / "mkdocs.yml"), site_dir=str(site))
            with contextlib.redirect_stdout(io.StringIO()):
                build(config)
            return time.perf_counter() - wall, time.process_time() - cpu

        def report(label: str, times: list[tuple[float, float]]) -> None:
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(f"{label:<44}{wall:7.2f} s{cpu:9.2f} s", flush=True)

        config = load_config(str(root / "mkdocs.yml"), site_dir=str(site))
        config.plugins.on_startup(command="serve", dirty=False)  # as serve does
        print(f"{'':<44}{'wall':>9}{'CPU':>11}")
        report("first build", [rebuild()])
        report("rebuild, nothing edited", [rebuild()])
        for label, path, line in EDITS:
            times = []
            for _ in range(args.repeat):
                with open(root / path, "a", encoding="utf-8") as file:
                    file.write(line)
                times.append(rebuild())
            report(f"after editing {label}", times)


if __name__ == "__main__":
    main()
