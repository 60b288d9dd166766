"""MkDocs hook: the live explorer on docs/your-sentence.md runs all-MiniLM-L6-v2 in
the reader's browser. On a build that has the page, it adds to the site:

- `assets/live-model/model.onnx`: the model exported to ONNX and quantised
  (weights only): token ids and a gate of 6 x 12 (1: head on) in, every layer's
  attention weights and the sentence embedding out. Saved under
  `.cache/live-model/`, keyed on the weights, this file, the reference snippet and
  the packages' versions: a build in which none of them changed exports nothing.
- the model's tokenizer files, and onnxruntime-web's single-threaded runtime and
  @huggingface/tokenizers from node_modules (pinned in package.json): no CDN.
- in the page, at the marker: the example sentences' maps computed by PyTorch
  (shown before the model loads, and without JavaScript), the measured
  quantisation error, and the explorer's script, which fetches the model and the
  runtime only when the reader presses "Load the model".
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib
import io
import json
import logging
import os
import shutil
import warnings
from importlib.metadata import version
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- your sentence: data and script -->"
SCRIPT = "assets/js/your-sentence.js"
STYLE = "assets/css/your-sentence.css"
SITE = "assets/live-model/"
REFERENCE = "snippets.your_sentence.ex01_reference"
PACKAGES = ("torch", "transformers", "onnx", "onnxscript", "onnxruntime", "tokenizers")
# site path under SITE -> file in node_modules (package.json pins both packages)
ORT = "onnxruntime-web/dist/"
RUNTIME = {
    "ort/ort.wasm.min.mjs": ORT + "ort.wasm.min.mjs",
    "ort/ort-wasm-simd-threaded.mjs": ORT + "ort-wasm-simd-threaded.mjs",
    "ort/ort-wasm-simd-threaded.wasm": ORT + "ort-wasm-simd-threaded.wasm",
    "tokenizers.min.mjs": "@huggingface/tokenizers/dist/tokenizers.min.mjs",
}
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")
# Fetched by the script on "Load", in this order; the page's button names their size.
DOWNLOADS = ["model.onnx", "ort/ort-wasm-simd-threaded.wasm", "tokenizer.json"]

# The sentences the page opens with, each with a second one to compare it with
EXAMPLES = [
    ("The cat slept on the warm windowsill all afternoon.", "A cat napped in the sun."),
    ("He sat on the bank of the river.", "He sat at the water's edge."),
    ("The match was cancelled because of rain.", "Rain stopped the game."),
]
QUANTISATION = {"bits": 8, "block_size": 32}  # MatMulNBits, symmetric, weights only
HEADS_OFF = 12  # heads switched off at random (seeded) in the error's second run
SEED = 0


# -- the model, exported and quantised -------------------------------------------


def cache_key() -> str:
    """What the saved model depends on (the module docstring's list)."""
    from snippets import sources_key
    from snippets.real_model.ex01_weights import SHA256

    key = hashlib.sha256(SHA256.encode())
    key.update(Path(__file__).read_bytes())
    key.update(sources_key(REFERENCE).encode())
    for package in PACKAGES:
        key.update(f"{package}=={version(package)}".encode())
    return key.hexdigest()[:16]


def built(root: Path = ROOT) -> Path:
    """The folder of model.onnx, examples.json and error.json, built first if it
    is not saved: under a lock (a build beside this one waits instead of exporting
    again), into a temporary folder renamed when complete (never seen half-built)."""
    folder = root / ".cache" / "live-model" / cache_key()
    if (folder / "error.json").exists():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(f"{folder.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if (folder / "error.json").exists():  # built while this one waited
            return folder
        partial = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        build(partial)
        partial.rename(folder)
    for older in folder.parent.iterdir():  # models of earlier keys: 24 MB each
        if older != folder and (older / "error.json").exists():
            shutil.rmtree(older, ignore_errors=True)
    return folder


def reference():
    with contextlib.redirect_stdout(io.StringIO()):  # the snippet prints its results
        return importlib.import_module(REFERENCE)


def live_module(model, limit: int):
    """all-MiniLM-L6-v2 as the browser runs it: token ids (1, T) and a gate (6, 12)
    in; the attention weights (6, 12, T, T) and the sentence embedding (384,) out.
    Smaller, computing the same for T <= limit: word embeddings in int8 with a
    scale per row (half the parameters); only `limit` positions (the page cuts
    the text there); each head's context times its gate before the output
    projection (as the reference's switch_off, for a gate of 0 or 1)."""
    import torch
    import torch.nn.functional as F

    head_dim = model.config.hidden_size // model.config.num_attention_heads

    class Int8Rows(torch.nn.Module):
        def __init__(self, weight):
            super().__init__()
            scale = weight.abs().amax(dim=1, keepdim=True) / 127  # (vocab, 1)
            self.register_buffer("q", torch.round(weight / scale).to(torch.int8))
            self.register_buffer("scale", scale)

        def forward(self, ids):
            return self.q[ids].float() * self.scale[ids]

    class Live(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model
            embeddings = model.embeddings
            embeddings.word_embeddings = Int8Rows(embeddings.word_embeddings.weight)
            positions = embeddings.position_embeddings.weight[:limit]
            embeddings.position_embeddings = torch.nn.Embedding.from_pretrained(
                positions.detach().clone()
            )
            self.gate = None
            for n, layer in enumerate(model.encoder.layer):
                layer.attention.output.dense.register_forward_pre_hook(self.gated(n))

        def gated(self, n):
            def hook(projection, args):
                (context,) = args  # (1, T, heads * head_dim)
                return (context * self.gate[n].repeat_interleave(head_dim),)

            return hook

        def forward(self, input_ids, gate):
            self.gate = gate
            out = self.model(input_ids=input_ids, output_attentions=True)
            weights = torch.stack(out.attentions)[:, 0]  # (6, 12, T, T)
            mean = out.last_hidden_state[0].mean(0)
            return weights, F.normalize(mean, dim=0)

    return Live().eval()


def export(path: Path, limit: int) -> None:
    """Export with torch.onnx (dynamo), the number of tokens dynamic, from a model
    loaded for it alone: exporting changes the module it traces."""
    import torch
    from transformers import AutoModel

    from snippets.real_model.ex01_weights import model_dir

    model = AutoModel.from_pretrained(
        model_dir(), local_files_only=True, attn_implementation="eager"
    ).eval()
    live = live_module(model, limit)
    ids = torch.tensor([[101, 1996, 4937, 102]])  # [CLS] the cat [SEP]
    gate = torch.ones(model.config.num_hidden_layers, model.config.num_attention_heads)
    tokens = torch.export.Dim("tokens", min=3, max=limit)
    quiet = logging.getLogger("torch.onnx")  # it names every op it cannot register
    with (
        torch.no_grad(),
        contextlib.redirect_stdout(io.StringIO()),
        warnings.catch_warnings(),
        level(quiet, logging.ERROR),
    ):
        warnings.simplefilter("ignore")  # transformers' and torch's tracing notes
        torch.onnx.export(
            live,
            (ids, gate),
            str(path),
            dynamo=True,
            input_names=["input_ids", "gate"],
            output_names=["weights", "sentence_embedding"],
            dynamic_shapes={"input_ids": {1: tokens}, "gate": None},
            external_data=False,
            verbose=False,
        )


@contextlib.contextmanager
def level(logger, at):
    """`logger` at level `at` inside the with-block."""
    before = logger.level
    logger.setLevel(at)
    try:
        yield
    finally:
        logger.setLevel(before)


def quantise(source: Path, path: Path) -> None:
    """Weight-only 8-bit matmuls (MatMulNBits, block 32, activations in fp32), the
    metadata the exporter writes (stack traces, shapes) dropped."""
    import onnx

    # importing the quantiser calls logging.basicConfig(level=INFO): undone
    root = logging.getLogger()
    handlers, at = root.handlers[:], root.level
    try:
        from onnxruntime.quantization.matmul_nbits_quantizer import (
            DefaultWeightOnlyQuantConfig,
            MatMulNBitsQuantizer,
        )
    finally:
        root.handlers[:], root.level = handlers, at

    model = onnx.load(str(source))
    config = DefaultWeightOnlyQuantConfig(
        **QUANTISATION, is_symmetric=True, op_types_to_quantize=("MatMul",)
    )
    quantiser = MatMulNBitsQuantizer(model, algo_config=config)
    logger = logging.getLogger("onnxruntime.quantization.matmul_nbits_quantizer")
    with level(logger, logging.WARNING):  # it logs every node at INFO
        quantiser.process()
    quantised = quantiser.model.model
    for node in quantised.graph.node:
        del node.metadata_props[:]
        node.doc_string = ""
    del quantised.graph.value_info[:]
    onnx.checker.check_model(quantised)
    onnx.save(quantised, str(path))


def session(path: Path):
    """onnxruntime on one thread, as the browser runs it."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options)


def run_onnx(sess, ids, off=()):
    """The saved model's weights and embedding for ids (a list), the heads in
    `off` switched off."""
    import numpy as np

    gate = np.ones((6, 12), np.float32)
    for layer, head in off:
        gate[layer, head] = 0
    return sess.run(None, {"input_ids": np.array([ids], np.int64), "gate": gate})


def error_sentences() -> list[str]:
    """The sentences the error is measured on: the real-model page's 24 and the
    ablation page's 32, written for those pages, not for this one."""
    with contextlib.redirect_stdout(io.StringIO()):
        from snippets.ablation.ex05_sentences import texts
        from snippets.real_model.ex03_attend import sentences
    return list(sentences) + list(texts)


def measure(path: Path) -> dict:
    """How far the saved model is from PyTorch's fp32 reference, on every error
    sentence with all heads on and with HEADS_OFF random heads off: the largest
    difference of a weight, the share of rows whose top weight is on the same
    token, the lowest cosine similarity of the embeddings."""
    import torch

    ref = reference()
    sess = session(path)
    generator = torch.Generator().manual_seed(SEED)
    worst, rows, same, cosine, runs = 0.0, 0, 0, 1.0, 0
    for text in error_sentences():
        chosen = torch.randperm(72, generator=generator)[:HEADS_OFF].tolist()
        for off in ((), [divmod(h, 12) for h in chosen]):
            _, weights, embedding = ref.run(text, off)
            ids = ref.tokenizer(text)["input_ids"]
            got, got_embedding = run_onnx(sess, ids, off)
            got = torch.from_numpy(got)
            worst = max(worst, (got - weights).abs().max().item())
            rows += weights[..., 0].numel()
            same += (got.argmax(-1) == weights.argmax(-1)).sum().item()
            cosine = min(cosine, float(torch.from_numpy(got_embedding) @ embedding))
            runs += 1
    return {
        "sentences": len(error_sentences()),
        "runs": runs,
        "heads_off": HEADS_OFF,
        "worst_cell": worst,
        "rows": rows,
        "same_top": same / rows,
        "worst_cosine": cosine,
    }


def examples() -> list[dict]:
    """The example sentences as PyTorch computes them: tokens, every head's map
    (in integer hundredths) and the two sentences' similarity, all heads on."""
    ref = reference()
    out = []
    for text, other in EXAMPLES:
        tokens, weights, embedding = ref.run(text)
        _, _, other_embedding = ref.run(other)
        out.append(
            {
                "text": text,
                "other": other,
                "tokens": tokens,
                "weights": (weights * 100).round().int().tolist(),
                "similarity": float(embedding @ other_embedding),
            }
        )
    return out


def build(folder: Path) -> None:
    limit = reference().LIMIT
    export(folder / "exported.onnx", limit)
    quantise(folder / "exported.onnx", folder / "model.onnx")
    (folder / "exported.onnx").unlink()
    (folder / "examples.json").write_text(json.dumps(examples()), encoding="utf-8")
    error = {**measure(folder / "model.onnx"), "limit": limit, **QUANTISATION}
    (folder / "error.json").write_text(json.dumps(error), encoding="utf-8")


# -- the site ------------------------------------------------------------------


def node_module(name: str, root: Path) -> Path:
    path = root / "node_modules" / name
    if not path.is_file():
        raise PluginError(
            f"{path} is missing: the live explorer serves it from node_modules. "
            "Run `npm ci` (make does it)."
        )
    return path


@functools.cache
def weights_folder() -> Path:
    """The weights' folder, checked once per process (not 91 MB per rebuild)."""
    from snippets.real_model.ex01_weights import model_dir

    return model_dir()


def site_files(root: Path) -> dict[str, Path]:
    """site path -> the file it is copied from."""
    folder = built(root)
    files = {SITE + "model.onnx": folder / "model.onnx"}
    weights = weights_folder()
    files |= {SITE + name: weights / name for name in TOKENIZER_FILES}
    files |= {SITE + name: node_module(m, root) for name, m in RUNTIME.items()}
    return files


def on_files(files, config):
    if not any(MARKER in f.content_string for f in files.documentation_pages()):
        return files  # a partial site without the page (a test's)
    root = Path(config["config_file_path"]).resolve().parent
    for path, source in site_files(root).items():
        files.append(File.generated(config, path, abs_src_path=str(source)))
    return files


def page_data(root: Path) -> dict:
    folder = built(root)
    files = site_files(root)
    return {
        "limit": json.loads((folder / "error.json").read_text())["limit"],
        "downloads": {name: files[SITE + name].stat().st_size for name in DOWNLOADS},
        "examples": json.loads((folder / "examples.json").read_text()),
    }


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    root = Path(config["config_file_path"]).resolve().parent
    data = json.dumps(page_data(root), separators=(",", ":"))
    here = page.file.url
    script = get_relative_url(SCRIPT, here)
    assets = get_relative_url(SITE, here)
    style = get_relative_url(STYLE, here)
    html = (
        f'<link rel="stylesheet" href="{style}">\n'
        f'<script type="application/json" id="your-sentence-data">{data}</script>\n'
        f'<script type="module" src="{script}" data-assets="{assets}"></script>'
    )
    return markdown.replace(MARKER, html)
