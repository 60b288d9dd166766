"""The live explorer (docs/your-sentence.md) against PyTorch: the model is loaded
once, in one page, and every sentence below is typed into it; every head's map,
the embeddings, roles and similarities it shows are snippets/your_sentence/
ex01_reference.py's, within the tolerances the page states."""

import base64
import json
import socket
from pathlib import Path

import pytest
import torch

from hooks.live_model import DOWNLOADS, EXAMPLES, SITE
from tests.browser.browser_kit import (
    ARTIFACTS,
    SHOT_MS,
    Problems,
    axe_both_schemes,
    set_scheme,
)
from tests.pages import lazy
from tools.build import SiteHandler, serve

ref = lazy("snippets.your_sentence.ex01_reference")

# What the page promises (tests/test_your_sentence.py finds each on the page).
CELL = 0.05  # largest difference on any cell of any map
TOP = 0.99  # share of rows whose largest weight is on the same token
COSINE = 0.999  # each embedding's cosine similarity with PyTorch's, at least
SIMILARITY = 0.005  # the similarities the page prints, as numbers
LOAD_MS = 60_000  # the model's download and start, over the loopback

LONG = " ".join(["The quick brown fox jumps over the lazy dog."] * 8)  # > 64 tokens
SENTENCES = [text for pair in EXAMPLES for text in pair] + [
    'Wait... what?! No -- really; (yes) "quoted" & done.',
    "My 😀 emoji and ☃ snowman are not words.",
    "Привет, мир! 東京 is in Japan; ünïcödé accents.",
    "In 1999, 3.5% of 200 people paid $4.20 each.",
    "Supercalifragilisticexpialidocious antidisestablishmentarianism.",
    "Hello",
    LONG,
]
# heads switched off, for some of the sentences: one head, a layer, any set
OFF = {
    0: [(0, 2)],
    2: [(1, h) for h in range(12)],
    6: [(0, 8), (2, 7), (3, 3), (4, 5), (5, 0), (5, 11)],
}


# What the page shows: its `heads` (see your-sentence.js), the maps' weights sent
# as the bytes of their Float32Array (quicker than a list of numbers).
SHOWN = """() => {
    const heads = document.getElementById('your-sentence').heads;
    if (!heads) return null;
    const bytes = new Uint8Array(heads.weights.buffer, heads.weights.byteOffset,
                                 heads.weights.byteLength);
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000)
        text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return {...heads, weights: btoa(text),
            embedding: heads.embedding && Array.from(heads.embedding)};
}"""


def shown(page) -> dict | None:
    heads = page.evaluate(SHOWN)
    if heads is not None:
        raw = bytearray(base64.b64decode(heads["weights"]))
        heads["weights"] = torch.frombuffer(raw, dtype=torch.float32)
    return heads


def wait_shown(page, text: str, other: str, off: list[int]) -> None:
    want = json.dumps([text, other, off], separators=(",", ":"), ensure_ascii=False)
    page.wait_for_function(
        """(want) => {
            const root = document.getElementById('your-sentence');
            return root.dataset.busy === 'false' &&
                JSON.stringify(JSON.parse(root.dataset.shown || 'null')) === want;
        }""",
        arg=want,
    )


def type_in(page, text: str, other: str, off: list[int]) -> None:
    form = page.locator("#your-sentence form")
    form.locator("textarea[name='text']").fill(text)
    form.locator("input[name='other']").fill(other)
    wait_shown(page, text, other, off)


def choose(page, layer: int, head: int) -> None:
    """Click a head's thumbnail until it is the locked one."""
    thumb = page.locator(
        f".heads-live__thumb[data-layer='{layer}'][data-head='{head}']"
    )
    if thumb.get_attribute("aria-pressed") != "true":
        thumb.click()
    assert thumb.get_attribute("aria-pressed") == "true"


def test_before_load_the_examples_are_pytorchs_and_nothing_is_fetched(page, problems):
    page.goto("your-sentence/")
    page.locator("#your-sentence[data-ready='true']").wait_for()
    page.wait_for_load_state("networkidle")
    assert problems.requests(f"/{SITE}") == []
    button = page.locator("[data-action='load']")
    data = json.loads(page.locator("#your-sentence-data").text_content())
    megabytes = sum(data["downloads"].values()) / 1e6
    assert button.inner_text() == f"Load the model ({megabytes:.1f} MB)"
    assert megabytes <= 40  # a reader's download: model and runtime together
    for index, (text, _) in enumerate(EXAMPLES):
        page.locator("select[name='example']").select_option(str(index))
        heads = shown(page)
        tokens, weights, _ = ref.run(text)
        assert heads["tokens"] == tokens
        got = heads["weights"].view(weights.shape)
        assert (got - weights).abs().max() <= 5e-3 + 1e-6  # kept to 2 decimals
    assert page.locator("textarea[name='text']").is_disabled()
    problems.assert_none()


def test_every_map_and_embedding_agrees_with_pytorch(live):
    page, _ = live
    worst, rows, same = 0.0, 0, 0
    for n, text in enumerate(SENTENCES):
        other = SENTENCES[(n + 1) % len(SENTENCES)]
        off = OFF.get(n, [])
        set_off(page, off)
        type_in(page, text, other, sorted(12 * layer + head for layer, head in off))
        heads = shown(page)
        tokens, weights, embedding = ref.run(text, off)
        assert heads["tokens"] == tokens, text  # the Python tokenizer's, [UNK] too
        got = heads["weights"].view(weights.shape)
        worst = max(worst, (got - weights).abs().max().item())
        rows += weights[..., 0].numel()
        same += (got.argmax(-1) == weights.argmax(-1)).sum().item()
        mine = torch.tensor(heads["embedding"])
        assert mine @ embedding >= COSINE, text
        check_roles(page, heads, weights)
        check_similarities(page, text, other, off, embedding)
        assert worst <= CELL, (text, worst)
    assert same / rows >= TOP, same / rows
    set_off(page, [])


def set_off(page, off) -> None:
    """Switch exactly the heads in `off` off, with the page's controls: every
    head back on, then a whole layer with its button when `off` is one, else one
    head at a time."""
    page.locator("[data-action='all-on']").click()
    layers = {layer for layer, _ in off}
    if len(off) == 12 and len(layers) == 1:
        (layer,) = layers
        choose(page, layer, 0)
        page.locator("[data-action='layer-off']").click()
    else:
        for layer, head in off:
            choose(page, layer, head)
            page.locator("input[name='off']").check()
    want = sorted(12 * layer + head for layer, head in off)
    page.wait_for_function(
        "(n) => document.querySelectorAll('.heads-live__thumb.is-off').length === n",
        arg=len(want),
    )


def check_roles(page, heads, weights) -> None:
    """Every head's four shares as the real-model page measures them, and the
    chosen head's as the table prints them."""
    from snippets.real_model.ex04_find_heads import pattern_scores

    if weights.shape[-1] < 4:
        return  # one word: no previous or next token to measure
    want = pattern_scores(weights)  # (4, 6, 12)
    got = torch.tensor(heads["roles"]).T.reshape(4, 6, 12)
    assert (got - want).abs().max() <= CELL
    layer, head = 0, 2
    choose(page, layer, head)
    cells = page.locator("td[data-of='head']").all_inner_texts()
    assert [float(c) for c in cells] == pytest.approx(
        want[:, layer, head].tolist(), abs=CELL + 0.005
    )


def check_similarities(page, text, other, off, embedding) -> None:
    on = ref.run(text)[2] if off else embedding  # every head on
    other_on = ref.run(other)[2]
    printed = {
        name: float(page.locator(f"[data-out='similarity-{name}']").inner_text())
        for name in ("self", "with")
    }
    assert printed["self"] == pytest.approx(float(embedding @ on), abs=SIMILARITY)
    assert printed["with"] == pytest.approx(float(on @ other_on), abs=SIMILARITY)
    if off:
        other_off = ref.run(other, off)[2]
        without = float(page.locator("[data-out='similarity-without']").inner_text())
        assert without == pytest.approx(float(embedding @ other_off), abs=SIMILARITY)
        consequence = page.locator("[data-out='consequence']").inner_text()
        assert f"{len(off)} head" in consequence


def test_bad_input_gets_a_clear_answer(live):
    page, _ = live
    note = page.locator("[data-out='note']")
    type_in(page, "   ", "", [])
    assert "Type a sentence" in note.inner_text()
    assert shown(page) is None
    assert page.locator(".heads-live__grid").is_hidden()

    type_in(page, LONG, "", [])
    assert shown(page)["T"] == ref.LIMIT
    assert f"longer than {ref.LIMIT} tokens: it was cut there" in note.inner_text()

    type_in(page, "A 😀 face", "", [])
    assert "[UNK]" in shown(page)["tokens"]
    assert page.locator(".heads-live__token.is-unknown").inner_text() == "[UNK]"
    assert "shown as [UNK]" in note.inner_text()


def test_hover_views_click_locks_and_unlocks_and_so_does_the_keyboard(live):
    page, _ = live
    type_in(page, *EXAMPLES[1], [])
    title = page.locator("[data-out='head']")
    page.locator(".heads-live__thumb[data-layer='3'][data-head='4']").hover()
    assert title.inner_text().startswith("Layer 4, head 5")  # counted from 1
    first = page.locator(".heads-live__thumb[data-layer='0'][data-head='0']")
    assert first.get_attribute("aria-label") == "layer 1 head 1"
    thumb = page.locator(".heads-live__thumb[data-layer='1'][data-head='8']")
    thumb.click()
    page.locator("h1").hover()
    assert title.inner_text().startswith("Layer 2, head 9 (locked")
    thumb.click()  # again: unlocked
    assert thumb.get_attribute("aria-pressed") == "false"
    keyed = page.locator(".heads-live__thumb[data-layer='4'][data-head='5']")
    keyed.focus()  # the keyboard alone: focus views, Enter locks and unlocks
    assert title.inner_text().startswith("Layer 5, head 6")
    page.keyboard.press("Enter")
    assert keyed.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert keyed.get_attribute("aria-pressed") == "false"
    page.locator(".heads-live__token[data-index='2']").hover()
    row = page.locator("[data-out='row']").inner_text()
    assert row.startswith(shown(page)["tokens"][2])


def test_axe_in_both_schemes_and_the_page_at_390_px(live):
    """axe with the model loaded and a sentence shown (test_pages.py runs it on
    the page as it opens); at 390 px nothing is wider than the window. Screenshots
    of both widths, in both schemes, in test-artifacts/browser/."""
    page, _ = live
    type_in(page, *EXAMPLES[0], [])
    shot = ARTIFACTS / "your-sentence-loaded"
    found = axe_both_schemes(page, Path(f"{shot}-1280"))
    assert found == {}, f"axe violations: {found}"
    page.set_viewport_size({"width": 390, "height": 844})
    for scheme in ("slate", "default"):
        set_scheme(page, scheme)
        page.wait_for_timeout(100)  # the large map is redrawn at the new width
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - window.innerWidth"
        )
        assert overflow <= 0, f"{overflow} px wider than the window at 390 px"
        page.screenshot(
            path=f"{shot}-390-{scheme}.jpg",
            full_page=True,
            type="jpeg",
            timeout=SHOT_MS,
        )
    thumbs = page.locator(".heads-live__thumb")
    assert thumbs.count() == 72
    box = thumbs.nth(11).bounding_box()  # a layer's last head, still in the window
    assert box["x"] + box["width"] <= 390 and box["width"] >= 16
    page.set_viewport_size({"width": 1280, "height": 900})


# -- the page with the model, loaded once: the first download is cut off ----------


class DroppingHandler(SiteHandler):
    """Sends the first request for the model only in part, then drops the
    connection; every other request as usual."""

    dropped: list[str] = []

    def do_GET(self):
        if self.path.endswith("/model.onnx") and not self.dropped:
            self.dropped.append(self.path)
            path = self.translate_path(self.path)
            with open(path, "rb") as file:
                size = file.seek(0, 2)
                file.seek(0)
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(size))
                self.end_headers()
                self.wfile.write(file.read(1 << 20))  # 1 MB of it
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture(scope="module")
def dropping_url(built_site):
    url, server = serve(built_site, DroppingHandler, quiet=True, dropped=[])
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def live(browser, dropping_url):
    """One page with the model loaded, for the whole file. Nothing of the model is
    fetched before the click; the first download is cut off by the server (what
    the page said then is kept for the test below), the retry loads the model."""
    context = browser.new_context(
        base_url=dropping_url, color_scheme="light", locale="en-GB"
    )
    page = context.new_page()
    seen = Problems(dropping_url).watch(page)
    page.goto("your-sentence/")
    page.locator("#your-sentence[data-ready='true']").wait_for()
    page.wait_for_load_state("networkidle")
    assert seen.requests(f"/{SITE}") == []
    button = page.locator("[data-action='load']")
    button.click()
    page.locator("#your-sentence[data-state='failed']").wait_for(timeout=LOAD_MS)
    first_try = {
        "status": page.locator("[data-out='status']").inner_text(),
        "button": button.inner_text(),
        "enabled": button.is_enabled(),
        "text disabled": page.locator("textarea[name='text']").is_disabled(),
        "failed": seen.failed_requests[:],
    }
    seen.failed_requests.clear()  # the cut-off download, on purpose
    seen.console_errors.clear()  # and Chromium's line about it
    requested = len(seen.requested)
    button.click()
    page.locator("#your-sentence[data-state='ready']").wait_for(timeout=LOAD_MS)
    wait_shown(page, EXAMPLES[0][0], EXAMPLES[0][1], [])
    fetched = {u.split(f"/{SITE}")[-1] for u in seen.requested[requested:]}
    assert set(DOWNLOADS) <= fetched, fetched
    yield page, first_try
    seen.assert_none()
    context.close()


def test_an_interrupted_download_says_so_and_retries(live):
    page, first_try = live
    assert "did not finish" in first_try["status"]
    assert "Try again" in first_try["status"]
    assert first_try["button"] == "Try again" and first_try["enabled"]
    assert first_try["text disabled"]  # nothing half-loaded to type into
    # the cut-off model; the page stopped the other two downloads itself
    stopped = ["/ort-wasm-simd-threaded.wasm:", "/tokenizer.json:"]
    failed = first_try["failed"]
    assert any("/model.onnx:" in f for f in failed)
    assert [
        f
        for f in failed
        if "/model.onnx:" not in f
        and not ("ERR_ABORTED" in f and any(name in f for name in stopped))
    ] == []
    # retried: loaded, and what it shows is PyTorch's
    assert page.locator("[data-action='load']").is_hidden()
    assert shown(page)["tokens"] == ref.run(EXAMPLES[0][0])[0]
