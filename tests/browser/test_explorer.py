"""The explorer (docs/explorer.md, docs/assets/js/explorer.js) shows what PyTorch
computes (explore() in snippets/explorer/ex03_explore.py): for random settings of
every control, every number it shows equals PyTorch's to 1e-6, with the same
printed digits. It works with the keyboard alone and by touch, refuses bad input
loudly, and fits a phone's width, legibly, in both schemes."""

import random
import re
import types

import pytest
import torch
from playwright.sync_api import expect

from snippets.attention_inputs import tokens as TOKENS
from tests.browser import browser_kit as kit
from tests.pages import lazy

ex01 = lazy("snippets.explorer.ex01_two_heads")  # imported before the first test
ex03 = lazy("snippets.explorer.ex03_explore")

TOLERANCE = 1e-6  # the page computes in float64, as PyTorch does on float64 copies
DIGITS = {"query": 2, "keys1": 2}  # the page prints coordinates with 2, the rest 4
# What the page shows, all of it (names and indices into explore()'s results):
# the three maps, head 1's keys, the query and its scores, what the designs hand
# on, and W_o's outputs.
SHOWN = {
    *[(m, i, j) for m in ("w1", "w2", "wide") for i in range(6) for j in range(6)],
    *[("keys1", j, d) for j in range(6) for d in range(2)],
    *[("query", d) for d in range(2)],
    *[("scores1", j) for j in range(6)],
    *[(n, k) for n in ("both", "c_wide") for k in range(4)],
    *[(n, k) for n in ("out", "out_both", "out_wide") for k in range(3)],
}


def float64(function, **replace):
    """`function` with the tensors it reads (its module's) as float64 copies."""
    names = {
        name: value.double() if isinstance(value, torch.Tensor) else value
        for name, value in function.__globals__.items()
    }
    return types.FunctionType(
        function.__code__, {**names, **replace}, function.__name__,
        function.__defaults__, function.__closure__,
    )  # fmt: skip


def pytorch(setting: dict, dtype) -> dict[tuple, float]:
    """explore() for one setting, in float32 (as the page's code runs) or in
    float64 (what the page's float64 arithmetic must match digit for digit)."""
    explore = ex03.explore
    if dtype == torch.float64:
        projections = float64(ex01.hand_set_projections)
        explore = float64(explore, hand_set_projections=projections)
    before = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # torch.zeros and torch.tensor in the snippets
    try:
        result = explore(**setting)
    finally:
        torch.set_default_dtype(before)
    return {key: result[key[0]][key[1:]].item() for key in SHOWN}


# -- reading the page -------------------------------------------------------------

# Every number the explorer shows: its meaning (data-num), its text and its value
# before rounding (data-value); each map square's opacity; the row panel's caption.
NUMBERS = """() => {
    const root = document.getElementById("explorer");
    return {
        numbers: [...root.querySelectorAll("[data-num]")].map((e) =>
            [e.dataset.num, e.textContent, e.dataset.value]),
        squares: [...root.querySelectorAll("[data-cell]")].map((e) =>
            [e.dataset.cell, e.getAttribute("fill-opacity")]),
        row: root.querySelector(".heads-explorer__weights caption").textContent,
        verdict: root.querySelector("[data-part='verdict']").textContent,
    };
}"""
# ...and any decimal number in the explorer's text that is not one of them (there
# must be none: every number shown is checked).
STRAY = """() => {
    const copy = document.getElementById("explorer").cloneNode(true);
    copy.querySelectorAll("[data-num], select, script").forEach((e) => e.remove());
    return copy.textContent.match(/-?\\d*\\.\\d+/g) || [];
}"""


def key_of(name: str) -> tuple:
    first, *rest = name.split(".")
    return (first, *map(int, rest))


def compare(reading: dict, setting: dict) -> list[str]:
    """What the page shows against PyTorch for `setting`: a list of differences."""
    want = pytorch(setting, torch.float64)
    want32 = pytorch(setting, torch.float32)
    wrong = [f"a number no test reads: {n}" for n in reading.get("stray", [])]
    seen = set()
    for name, text, value in reading["numbers"]:
        key = key_of(name)
        seen.add(key)
        printed = f"{want[key]:.{DIGITS.get(key[0], 4)}f}"
        if abs(float(value) - want[key]) > TOLERANCE or text != printed:
            wrong.append(
                f"{name}: page {text} ({value}), PyTorch {printed} ({want[key]})"
            )
        if abs(float(value) - want32[key]) > 1e-4:  # float32 agrees to 4 decimals
            wrong.append(f"{name}: page {value}, PyTorch in float32 {want32[key]}")
    for name, opacity in reading["squares"]:
        if abs(float(opacity) - want[key_of(name)]) > TOLERANCE:
            wrong.append(
                f"square {name}: opacity {opacity}, weight {want[key_of(name)]}"
            )
    wrong += [f"not shown: {key}" for key in sorted(SHOWN - seen)]
    token = setting["token"]
    if not reading["row"].startswith(f"The row of {token}"):
        wrong.append(f"the row panel shows {reading['row']!r}, not {token}'s")
    return wrong


def read(page) -> dict:
    return {**page.evaluate(NUMBERS), "stray": page.evaluate(STRAY)}


def shown_query(reading: dict) -> list[float]:
    values = {name: float(v) for name, _, v in reading["numbers"]}
    return [values["query.0"], values["query.1"]]


def assert_agrees(reading: dict, setting: dict) -> None:
    wrong = compare(reading, setting)
    assert not wrong, f"{len(wrong)} differences, the first: {wrong[:8]}"


# -- setting the controls, as the reader does, many times in one evaluate --------------

# For each setting: the form's controls (their events, as a reader's change fires
# them); a click on the token's row to lock it; a drag of the query's handle from
# where the query is to the point, or a click on the plane at the point (pointer
# events), or else the reset button; the two switches; then NUMBERS. The plane's
# square spans its data-domain, so a point's place on screen follows from its
# coordinates. (Each setting costs one layout, for the square's place: the time
# goes on layouts.)
APPLY = """async (settings) => {
    const read = NUMBERS;
    const root = document.getElementById("explorer");
    const f = document.getElementById("explorer-form").elements;
    const fire = (el, type) => el.dispatchEvent(new Event(type, { bubbles: true }));
    const tick = (el, on) => { if (el.checked !== on) el.click(); };
    const area = root.querySelector(".heads-plane__area");
    const [lo, hi] = area.dataset.domain.split(" ").map(Number);
    const plane = area.ownerSVGElement;
    const pointer = (type, [x, y]) => plane.dispatchEvent(new PointerEvent(type, {
        bubbles: true, pointerId: 1, pointerType: "mouse", isPrimary: true,
        button: 0, buttons: type === "pointerup" ? 0 : 1, clientX: x, clientY: y }));
    const query = () => ["query.0", "query.1"].map((name) =>
        Number(root.querySelector(`[data-num="${name}"]`).dataset.value));
    const readings = [];
    for (const s of settings) {
        tick(f.same_as_head_1, false);
        for (const name of ["query_reads", "key_reads"]) {
            f[name].value = String(s[name]);
            fire(f[name], "change");
        }
        for (const name of ["query_scale", "key_scale"]) {
            f[name].value = String(s[name]);
            fire(f[name], "input");
        }
        tick(f.same_as_head_1, s.same);
        const row = root.querySelector(`[data-map="w1"] [data-row="${s.row}"]`);
        if (row.getAttribute("aria-pressed") !== "true") {
            row.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        }
        if (s.target) {
            const box = area.getBoundingClientRect();
            const at = ([x, y]) => [box.left + (x - lo) / (hi - lo) * box.width,
                                    box.top + (hi - y) / (hi - lo) * box.height];
            const [from, to] = [at(query()), at(s.target)];
            if (s.click) {  // a click on the plane puts the query there
                pointer("pointerdown", to);
            } else {  // a drag from where the query is
                pointer("pointerdown", from);
                pointer("pointermove", [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]);
                pointer("pointermove", to);
            }
            pointer("pointerup", to);
        } else {
            const reset = root.querySelector("[data-part='reset']");
            if (!reset.disabled) reset.click();
        }
        tick(f.head_1_on, s.heads_on[0]);
        tick(f.head_2_on, s.heads_on[1]);
        readings.push(read());
    }
    return readings;
}""".replace("NUMBERS", NUMBERS)


def random_settings(n: int, seed: int, reach: float) -> list[dict]:
    """Settings nobody picked: a row to lock, a point for its query (or none),
    head 2's coordinates and scales, the copy switch and the two heads' switches."""
    rng = random.Random(seed)
    inside = reach - 0.05

    def scale():
        return rng.choice([round(rng.uniform(-10, 10), 2), rng.randint(-20, 20) / 2])

    return [
        {
            "row": rng.randrange(6),
            "target": None
            if rng.random() < 0.2
            else [round(rng.uniform(-inside, inside), 2) for _ in range(2)],
            "click": rng.random() < 0.3,
            "query_reads": rng.randint(1, 3),
            "key_reads": rng.randint(1, 3),
            "query_scale": scale(),
            "key_scale": scale(),
            "same": rng.random() < 0.2,
            "heads_on": [rng.random() < 0.75, rng.random() < 0.75],
        }
        for _ in range(n)
    ]


def as_explore(s: dict, query) -> dict:
    return {
        "token": TOKENS[s["row"]],
        "query": query,
        "q_reads": s["query_reads"],
        "k_reads": s["key_reads"],
        "q_scale": s["query_scale"],
        "k_scale": s["key_scale"],
        "same": s["same"],
        "heads_on": tuple(s["heads_on"]),
    }


@pytest.fixture
def explorer(page, problems):
    page.goto("explorer/")
    page.locator("#explorer[data-ready='true']").wait_for()
    return page


def plane_reach(page) -> float:
    return float(
        page.locator(".heads-plane__area").get_attribute("data-domain").split()[1]
    )


def test_every_number_agrees_with_pytorch_for_random_settings(explorer):
    page = explorer
    assert_agrees(read(page), {"token": "journey"})  # the defaults: the page's own
    reach = plane_reach(page)
    pixel = 2 * reach / page.locator(".heads-plane__area").bounding_box()["width"]
    settings = random_settings(50, seed=18, reach=reach)
    readings = page.evaluate(APPLY, settings)
    readings[-1]["stray"] = page.evaluate(STRAY)
    wrong = []
    for s, reading in zip(settings, readings, strict=True):
        query = shown_query(reading) if s["target"] else None
        if query is not None:  # the handle went where it was dragged, to a pixel
            gap = max(abs(q - t) for q, t in zip(query, s["target"], strict=True))
            assert gap <= pixel, (s, query)
        wrong += compare(reading, as_explore(s, query))
    assert not wrong, f"{len(wrong)} differences, the first: {wrong[:8]}"
    # the settings reached what they were drawn to reach
    assert {s["row"] for s in settings} == set(range(6))
    assert {s["same"] for s in settings} == {True, False}
    assert {s["click"] for s in settings if s["target"]} == {True, False}
    assert any(s["target"] is None for s in settings)
    assert {tuple(s["heads_on"]) for s in settings} >= {(True, True), (True, False)}

    # A copy of head 1: identical maps and contexts, head 2's controls idle; until
    # head 1's query moves, which is head 1's alone.
    reset = page.locator("[data-part='reset']")
    if reset.is_enabled():  # the last setting's query, moved
        reset.click()
    page.locator("input[name='same_as_head_1']").check()
    reading = read(page)
    assert "identical" in reading["verdict"]
    numbers = {name: text for name, text, _ in reading["numbers"]}
    cells = [f"{i}.{j}" for i in range(6) for j in range(6)]
    assert [numbers[f"w1.{c}"] for c in cells] == [numbers[f"w2.{c}"] for c in cells]
    both = [numbers[f"both.{k}"] for k in range(4)]
    assert both[:2] == both[2:]
    for name in ["select[name='query_reads']", "input[name='key_scale']"]:
        assert page.locator(name).is_disabled()
    page.locator(".heads-plane__handle").press("ArrowUp")
    assert "differ" in read(page)["verdict"]


def test_a_bad_scale_is_refused_and_the_maps_keep_the_last_valid_one(explorer):
    page = explorer
    field = page.locator("input[name='query_scale']")
    error = page.locator("#explorer-query-scale-error")
    before = read(page)
    for typed, message in [("25", "Out of range"), ("-10.5", "Out of range")]:
        field.fill(typed)
        assert field.get_attribute("aria-invalid") == "true"
        assert error.inner_text().startswith(message)
        assert read(page)["numbers"] == before["numbers"]
    field.fill("")
    assert error.inner_text().startswith("Not a number")
    field.press("e")  # a number field's value is then empty: bad input
    assert field.evaluate("el => el.validity.badInput")
    assert error.inner_text().startswith("Not a number")
    assert read(page)["numbers"] == before["numbers"]
    field.fill("-2")
    assert field.get_attribute("aria-invalid") == "false"
    assert error.inner_text() == ""
    assert_agrees(read(page), {"token": "journey", "q_scale": -2.0})


def test_the_keyboard_alone_drives_the_explorer(explorer):
    page = explorer
    page.locator("h1").click()  # start from the page, not from a control
    kit.tab_to(page, "[data-map='w1'] .heads-map__row")
    focused = "() => document.activeElement.dataset.row"
    assert page.evaluate(focused) == "1"  # the locked row, journey
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == "2"
    readout = page.locator("[data-part='readout']")
    assert readout.inner_text().startswith("Head 1, the row of starts")
    assert readout.locator("[data-num^='w1.2.']").count() == 6
    assert_agrees(read(page), {"token": "journey"})  # still locked on journey
    page.keyboard.press("Enter")
    assert_agrees(read(page), {"token": "starts"})
    assert "locked" in read(page)["row"]
    page.keyboard.press("Escape")
    assert "locked" not in read(page)["row"]
    page.keyboard.press("Enter")  # locked again
    same_row = page.locator("[data-map='w2'] [data-row='2']")
    assert same_row.get_attribute("aria-pressed") == "true"  # in every map

    kit.tab_to(page, "input[name='show_tables']")
    page.keyboard.press("Space")
    assert page.locator("[data-part='tables']").evaluate(
        "el => !el.classList.contains('heads-visually-hidden')"
    )
    kit.tab_to(page, ".heads-plane__handle")
    own = shown_query(read(page))
    for key in ["ArrowRight", "ArrowRight", "ArrowDown", "Shift+ArrowLeft"]:
        page.keyboard.press(key)
    moved = shown_query(read(page))
    assert moved == [round(own[0] + 0.05 + 0.05 - 0.25, 2), round(own[1] - 0.05, 2)]
    assert_agrees(read(page), {"token": "starts", "query": moved})
    page.keyboard.press("Escape")  # unlocking puts the query back
    assert_agrees(read(page), {"token": "starts"})
    assert "locked" not in read(page)["row"]
    page.keyboard.press("ArrowUp")  # and moving it locks its token again
    moved = shown_query(read(page))
    assert moved == [round(own[0], 2), round(own[1] + 0.05, 2)]
    assert read(page)["row"] == "The row of starts, locked"
    kit.tab_to(page, "[data-part='reset']")
    page.keyboard.press("Enter")
    assert_agrees(read(page), {"token": "starts"})
    kit.tab_to(page, "input[name='head_2_on']")
    page.keyboard.press("Space")
    assert_agrees(read(page), {"token": "starts", "heads_on": (True, False)})


@pytest.mark.browser_context_args(
    viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
)
def test_touch_locks_a_row_and_drags_the_query(explorer, problems):
    page = explorer
    square = page.locator("[data-map='w2'] [data-row='3'] [data-cell='w2.3.4']")
    square.scroll_into_view_if_needed()
    box = square.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    caption = page.locator(".heads-explorer__weights caption")
    page.touchscreen.tap(*centre)  # the browser's click follows the tap
    expect(caption).to_have_text("The row of with, locked")
    assert_agrees(read(page), {"token": "with"})
    page.touchscreen.tap(*centre)  # a second tap lets it go
    expect(caption).not_to_contain_text("locked")
    page.touchscreen.tap(*centre)
    expect(caption).to_have_text("The row of with, locked")
    # (a tap straight after a drag is no click in Chromium: the switch first)
    page.locator("label", has_text="head 1 feeds W_o").tap()
    expect(page.locator("input[name='head_1_on']")).not_to_be_checked()

    dot = page.locator(".heads-plane__dot")
    dot.scroll_into_view_if_needed()
    start = dot.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    scrolled = page.evaluate("() => scrollY")
    cdp = page.context.new_cdp_session(page)
    steps = [(x0 - 12 * k, y0 + 18 * k) for k in range(1, 7)]
    cdp.send("Input.dispatchTouchEvent", touch("touchStart", x0, y0))
    for x, y in steps:
        cdp.send("Input.dispatchTouchEvent", touch("touchMove", x, y))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    assert page.evaluate("() => scrollY") == scrolled  # the drag did not scroll
    reading = read(page)
    query = shown_query(reading)
    area = page.locator(".heads-plane__area").bounding_box()
    reach = plane_reach(page)
    x, y = steps[-1]
    expected = [
        (x - area["x"]) / area["width"] * 2 * reach - reach,
        reach - (y - area["y"]) / area["height"] * 2 * reach,
    ]
    assert max(abs(q - e) for q, e in zip(query, expected, strict=True)) <= 0.01
    assert_agrees(reading, {"token": "with", "query": query, "heads_on": (False, True)})
    problems.assert_none()


def touch(kind: str, x: float, y: float) -> dict:
    return {"type": kind, "touchPoints": [{"x": x, "y": y, "id": 1}]}


def test_the_explorer_fits_and_reads_at_each_width_and_scheme(explorer):
    """At 1280 and 390 px, in both schemes, with every part shown (the tables, a
    hovered row): nothing sticks out and no text is tiny; at 390 px axe's colour
    rules pass. Screenshots for a person to look at (test-artifacts/browser/)."""
    page = explorer
    page.add_style_tag(content=kit.NO_MOTION)
    page.locator("input[name='show_tables']").check()
    row = page.locator("[data-map='wide'] [data-row='4']")
    readout = page.locator("[data-part='readout']")
    kit.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in [1280, 390]:
        page.set_viewport_size({"width": width, "height": 900})
        for scheme in ["default", "slate"]:
            kit.set_scheme(page, scheme)
            row.hover()
            # read here, before the screenshot: a full-page screenshot moves the
            # page under the pointer, and Chromium sends the square a pointerleave
            # (the readout shows its hint), then a pointerenter when the page is
            # back, which may come after the screenshot has returned
            assert re.match(
                r"One wide head: one attends to \w+ with weight \d\.\d{4}$",
                readout.inner_text(),
            ), (width, scheme, readout.inner_text())
            kit.assert_fits(page, "#explorer", (width, scheme))
            if width == 390:  # (test_pages.py runs all of axe at 1280, tables hidden)
                violations = kit.run_axe(page, kit.COLOUR_RULES)
                assert violations == [], f"{width} {scheme} {violations}"
            shot = kit.ARTIFACTS / f"explorer-{width}-{scheme}.jpg"
            page.screenshot(
                path=shot, full_page=True, type="jpeg", quality=80, timeout=kit.SHOT_MS
            )
