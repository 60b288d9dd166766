// The explorer on docs/explorer.md: two attention heads over six tokens and one
// wide head made of both, recomputed in the browser on every change. Plain
// JavaScript, no library. The numbers it starts from (embeddings, projections, W_o)
// are embedded in the page at build time from the site's Python snippets
// (hooks/generated.py). `explore` below is explore() of
// snippets/explorer/ex03_explore.py, line for line, and a browser test checks that
// every number the page shows equals PyTorch's for random settings of every control.
(() => {
  "use strict";

  const root = document.getElementById("explorer");
  const source = document.getElementById("explorer-data");
  if (!root || !source) return;

  // --- when: the explorer is built as it nears the screen, or bit by bit when the
  // browser is idle --------------------------------------------------------------
  // Built at load, its maps, tables and plane (about 1,500 elements) were a long
  // task of the page's start-up, and the page's layout after it, on a page whose
  // first screen shows only the prose above them. Now each part is built in an
  // idle moment of its own (the page stays responsive meanwhile), and whatever is
  // left is built at once when a part the script draws comes within a quarter of
  // a screen's height of the screen, when the explorer gets the focus, or before
  // the page is printed.
  const idle = window.requestIdleCallback ?? ((go) => setTimeout(go, 1));
  let urgent = false;
  let wake = null; // ends the wait for an idle moment
  const pause = () =>
    urgent
      ? null
      : new Promise((resolve) => {
          wake = resolve;
          idle(resolve);
        });
  const hurry = () => {
    urgent = true;
    near.disconnect();
    root.removeEventListener("focusin", hurry);
    removeEventListener("beforeprint", hurry);
    wake?.();
  };
  const near = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && hurry(), {
    rootMargin: "25% 0px",
  });
  for (const drawn of root.querySelectorAll("[data-part]")) near.observe(drawn);
  root.addEventListener("focusin", hurry);
  addEventListener("beforeprint", hurry);
  setUp();

  async function setUp() {
    await pause();
    const data = JSON.parse(source.textContent);
    let ready = false; // every part is built
    const tokens = data.tokens;
    const SVG = "http://www.w3.org/2000/svg";

    // --- arithmetic, on arrays of rows (float64) -------------------------------
    const matmul = (a, b) =>
      a.map((row) => b[0].map((_, j) => row.reduce((sum, x, k) => sum + x * b[k][j], 0)));
    const vecmat = (v, m) => matmul([v], m)[0];
    const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));
    const softmax = (row) => {
      const top = Math.max(...row); // subtracting the maximum keeps exp() finite
      const exps = row.map((x) => Math.exp(x - top));
      const total = exps.reduce((s, x) => s + x, 0);
      return exps.map((x) => x / total);
    };
    // scores divided by the square root of the head's width, as in every head here
    const scoresOf = (q, k) => {
      const scale = Math.sqrt(k[0].length);
      return matmul(q, transpose(k)).map((row) => row.map((s) => s / scale));
    };

    // Head 2's query reads one coordinate times its scale; so does its key, with its own.
    function handSet(queryReads, keyReads, queryScale, keyScale) {
      const column = (reads, scale) => [0, 1, 2].map((i) => [i === reads - 1 ? scale : 0]);
      return [column(queryReads, queryScale), column(keyReads, keyScale), data.head2.W_v];
    }

    // Everything the explorer shows, for one setting of its controls.
    function explore(s) {
      const i = s.token;
      const x = data.inputs;
      const { W_q, W_k, W_v } = data.head1;
      const q1 = matmul(x, W_q);
      const k1 = matmul(x, W_k);
      const v1 = matmul(x, W_v);
      if (s.query) q1[i] = s.query.slice(); // head 1's query of the token, moved
      const W2 = s.same ? [W_q, W_k, W_v] : handSet(s.queryReads, s.keyReads, s.queryScale, s.keyScale);
      const [q2, k2, v2] = W2.map((W) => matmul(x, W));

      const scores1 = scoresOf(q1, k1);
      const scores2 = scoresOf(q2, k2);
      const w1 = scores1.map(softmax);
      const w2 = scores2.map(softmax);
      const wide = scores1.map((row, a) => softmax(row.map((v, b) => v + scores2[a][b])));

      const c1 = vecmat(w1[i], v1);
      const c2 = vecmat(w2[i], v2);
      const both = [...c1, ...c2];
      const cWide = vecmat(
        wide[i],
        v1.map((row, j) => [...row, ...v2[j]]),
      );
      const off = (c, on) => c.map((v) => (on ? v : 0)); // a switched-off head: zeros
      const out = vecmat([...off(c1, s.headsOn[0]), ...off(c2, s.headsOn[1])], data.W_o);
      return {
        w1,
        w2,
        wide,
        query: q1[i],
        keys1: k1,
        scores1: scores1[i],
        both,
        c_wide: cWide,
        out,
        out_both: vecmat(both, data.W_o),
        out_wide: vecmat(cWide, data.W_o),
        widths: [k1[0].length, k2[0].length],
      };
    }

    // --- small DOM helpers -------------------------------------------------------
    const svg = (name, attributes = {}, parent = null) => {
      const el = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
      if (parent) parent.append(el);
      return el;
    };
    const html = (name, attributes = {}, parent = null, text = null) => {
      const el = document.createElement(name);
      for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
      if (text !== null) el.textContent = text;
      if (parent) parent.append(el);
      return el;
    };
    const part = (name) => root.querySelector(`[data-part="${name}"]`);
    // A number the page shows: its text, and (for the tests) what it stands for and
    // its value before rounding.
    const DIGITS = { query: 2, keys1: 2 };
    // (Each write only if it changes something: a drag redraws on every move.)
    function setNumber(el, key, value) {
      const text = value.toFixed(DIGITS[key.split(".")[0]] ?? 4);
      if (el.dataset.num !== key) el.dataset.num = key;
      if (el.dataset.value !== String(value)) el.dataset.value = String(value);
      if (el.textContent !== text) el.textContent = text;
    }
    const setAttribute = (el, name, value) => {
      if (el.getAttribute(name) !== value) el.setAttribute(name, value);
    };
    const setText = (el, text) => {
      if (el.textContent !== text) el.textContent = text;
    };
    // [a, b | c, d]: a vector of numbers, with a bar between the heads' parts
    function vectorElement(parent, length, split = null) {
      const el = html("span", { class: "heads-explorer__vector" }, parent, "[");
      const numbers = [];
      for (let k = 0; k < length; k += 1) {
        if (k > 0) el.append(k === split ? " | " : ", ");
        numbers.push(html("span", {}, el));
      }
      el.append("]");
      return (key, values) => {
        for (const [k, v] of values.entries()) setNumber(numbers[k], `${key}.${k}`, v);
      };
    }

    // --- state --------------------------------------------------------------------
    const form = root.querySelector("form");
    const f = form.elements;
    const readsOf = (W) => W.findIndex((row) => row[0] !== 0) + 1;
    const scaleOf = (W) => W[readsOf(W) - 1][0];
    const start = tokens.indexOf("journey"); // the token the earlier pages follow
    f.query_reads.value = readsOf(data.head2.W_q);
    f.key_reads.value = readsOf(data.head2.W_k);
    f.query_scale.value = scaleOf(data.head2.W_q);
    f.key_scale.value = scaleOf(data.head2.W_k);
    const state = {
      locked: start, // the row a click has locked (null: none)
      hover: null, // the row under the pointer or with the focus
      last: start, // the row shown last, shown while nothing is locked or hovered
      query: null, // head 1's query of the locked token, where the reader moved it
      focusMap: null, // the map whose row has the focus
      cell: null, // [map, row, column] under the pointer
      scales: { query_scale: scaleOf(data.head2.W_q), key_scale: scaleOf(data.head2.W_k) },
    };
    const shown = () => state.locked ?? state.hover ?? state.last;
    const settings = () => ({
      token: shown(),
      query: state.locked === null ? null : state.query,
      queryReads: Number(f.query_reads.value),
      keyReads: Number(f.key_reads.value),
      queryScale: state.scales.query_scale,
      keyScale: state.scales.key_scale,
      same: f.same_as_head_1.checked,
      headsOn: [f.head_1_on.checked, f.head_2_on.checked],
    });

    // Lock row i, or unlock it if it is the locked one. A moved query goes back
    // whenever the lock changes: the handle belongs to the locked token.
    function toggleLock(i) {
      state.last = i;
      state.locked = state.locked === i ? null : i;
      state.query = null;
      update();
    }
    function unlock() {
      if (state.locked === null) return;
      state.last = state.locked;
      state.locked = null;
      state.query = null;
      update();
    }

    // --- the three maps -----------------------------------------------------------
    const MAPS = [
      { key: "w1", name: "Head 1", title: "head 1" },
      { key: "w2", name: "Head 2", title: "head 2" },
      { key: "wide", name: "One wide head", title: "the wide head" },
    ];
    const CELL = 30;
    const LEFT = 64;
    const TOP = 54;
    const SIDE = tokens.length * CELL;
    const mapsBox = part("maps");
    const maps = [];
    for (const [n, m] of MAPS.entries()) {
      maps.push(drawMap(m, n));
      await pause();
    }
    function drawMap(m, n) {
      const figure = html("figure", { class: `heads-map heads-map--${m.key}` }, mapsBox);
      const caption = html("figcaption", { id: `explorer-map-${m.key}` }, figure);
      html("strong", {}, caption, m.name);
      const note = html("span", { class: "heads-map__note" }, caption);
      const box = svg(
        "svg",
        {
          viewBox: `0 0 ${LEFT + SIDE + 28} ${TOP + SIDE + 2}`,
          role: "group",
          "aria-labelledby": `explorer-map-${m.key}`,
          "data-map": m.key,
        },
        figure,
      );
      const labels = svg("g", { "aria-hidden": "true", class: "heads-map__columns" }, box);
      tokens.forEach((token, j) => {
        const x = LEFT + j * CELL + CELL / 2;
        const label = svg("text", { transform: `translate(${x} ${TOP - 6}) rotate(-45)` }, labels);
        label.textContent = token;
      });
      const rows = tokens.map((token, i) => {
        const y = TOP + i * CELL;
        const row = svg(
          "g",
          {
            class: "heads-map__row",
            role: "button",
            tabindex: "-1",
            "data-row": i,
            "aria-label": `${token}: its row in ${m.title}'s map`,
            "aria-describedby": "explorer-readout",
          },
          box,
        );
        svg("rect", { class: "heads-map__hit", x: 0, y, width: LEFT + SIDE, height: CELL }, row);
        const label = svg("text", { x: LEFT - 8, y: y + CELL / 2, class: "heads-map__label" }, row);
        label.textContent = token;
        const cells = tokens.map((_, j) => {
          const cell = svg(
            "rect",
            {
              class: "heads-map__cell",
              x: LEFT + j * CELL,
              y,
              width: CELL,
              height: CELL,
              "data-cell": `${m.key}.${i}.${j}`,
            },
            row,
          );
          cell.addEventListener("pointerenter", () => {
            state.cell = [n, i, j];
            readout();
          });
          cell.addEventListener("pointerleave", () => {
            state.cell = null;
            readout();
          });
          return cell;
        });
        svg("rect", { class: "heads-map__outline", x: LEFT, y, width: SIDE, height: CELL }, row);
        row.addEventListener("pointerenter", () => {
          state.hover = i;
          update();
        });
        row.addEventListener("pointerleave", () => {
          state.hover = null;
          update();
        });
        row.addEventListener("click", () => toggleLock(i));
        row.addEventListener("focus", () => {
          state.hover = i;
          state.focusMap = n;
          update();
        });
        row.addEventListener("blur", () => {
          state.hover = null;
          state.focusMap = null;
          update();
        });
        row.addEventListener("keydown", (event) => {
          const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: tokens.length - 1 }[event.key];
          if (to !== undefined) {
            event.preventDefault();
            rows[Math.max(0, Math.min(tokens.length - 1, to))].row.focus();
          } else if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            toggleLock(i);
          }
        });
        return { row, cells };
      });
      return { ...m, note, rows };
    }

    // Under the maps: the values of the row with the focus, or of the cell under the
    // pointer (every value is also in the tables below, always in the page).
    const readoutBox = part("readout");
    const HINT = readoutBox.textContent;
    let lastResult = null;
    function readout() {
      readoutBox.textContent = "";
      const r = lastResult;
      if (state.cell) {
        const [n, i, j] = state.cell;
        readoutBox.append(`${MAPS[n].name}: ${tokens[i]} attends to ${tokens[j]} with weight `);
        setNumber(html("span", {}, readoutBox), `${MAPS[n].key}.${i}.${j}`, r[MAPS[n].key][i][j]);
      } else if (state.focusMap !== null && state.hover !== null) {
        const m = MAPS[state.focusMap];
        const i = state.hover;
        readoutBox.append(`${m.name}, the row of ${tokens[i]}: `);
        tokens.forEach((token, j) => {
          readoutBox.append(`${j ? "; " : ""}${token} `);
          setNumber(html("span", {}, readoutBox), `${m.key}.${i}.${j}`, r[m.key][i][j]);
        });
      } else {
        readoutBox.textContent = HINT;
      }
    }

    // Every weight of the three maps, as tables: always in the page (screen readers
    // read them; the checkbox shows them).
    const tablesBox = part("tables");
    await pause();
    const tableCells = [];
    for (const m of MAPS) {
      tableCells.push(mapTable(m));
      await pause();
    }
    function mapTable(m) {
      const table = html("table", { class: "heads-explorer__map-table" }, tablesBox);
      html("caption", {}, table, `${m.name}: weights (rows: the token that asks)`);
      const head = html("tr", {}, html("thead", {}, table));
      html("th", { scope: "col" }, head, "asks");
      for (const token of tokens) html("th", { scope: "col" }, head, token);
      const body = html("tbody", {}, table);
      return tokens.map((token) => {
        const tr = html("tr", {}, body);
        html("th", { scope: "row" }, tr, token);
        return tokens.map(() => html("td", {}, tr));
      });
    }
    const showTables = () => tablesBox.classList.toggle("heads-visually-hidden", !f.show_tables.checked);

    // --- the row of the shown token, in the three designs ----------------------------
    await pause();
    const rowBox = part("row");
    const rowTable = html("table", { class: "heads-explorer__weights" }, rowBox);
    const rowCaption = html("caption", {}, rowTable);
    const rowHead = html("tr", {}, html("thead", {}, rowTable));
    html("th", { scope: "col" }, rowHead, "attends to");
    for (const m of MAPS) html("th", { scope: "col" }, rowHead, m.name.toLowerCase());
    const rowBody = html("tbody", {}, rowTable);
    const rowCells = tokens.map((token) => {
      const tr = html("tr", {}, rowBody);
      html("th", { scope: "row" }, tr, token);
      return MAPS.map(() => {
        const td = html("td", {}, tr);
        const track = html("span", { class: "heads-explorer__track", "aria-hidden": "true" }, td);
        const bar = html("span", { class: "heads-explorer__bar" }, track);
        return { bar, value: html("span", { class: "heads-explorer__value" }, td) };
      });
    });
    const handsOn = html("dl", { class: "heads-explorer__contexts" }, rowBox);
    html("dt", {}, handsOn, "Two heads hand on their contexts, concatenated (head 1 | head 2)");
    const bothVector = vectorElement(html("dd", {}, handsOn), 4, 2);
    html("dt", {}, handsOn, "One wide head hands on one weighting of all four value columns");
    const wideVector = vectorElement(html("dd", {}, handsOn), 4);

    // --- the plane of head 1's queries and keys ---------------------------------------
    await pause();
    const plane = part("plane");
    const SIZE = 300;
    const PAD = 26;
    const initial = explore({ ...settings(), query: null });
    const reach = Math.max(
      ...initial.keys1.flat(),
      ...matmul(data.inputs, data.head1.W_q).flat().map(Math.abs),
    );
    const R = Math.ceil(reach * 1.25 * 2) / 2; // the plane spans -R..R on both axes
    const px = (v) => PAD + ((v + R) / (2 * R)) * (SIZE - 2 * PAD);
    const py = (v) => SIZE - px(v);
    const fromPx = (p) => ((p - PAD) / (SIZE - 2 * PAD)) * 2 * R - R;
    const snap = (v) => Math.round(Math.max(-R, Math.min(R, v)) * 100) / 100 + 0;
    const planeSvg = svg("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      role: "group",
      "aria-labelledby": "explorer-plane-caption",
    });
    plane.prepend(planeSvg);
    svg(
      "rect",
      {
        class: "heads-plane__area",
        x: PAD,
        y: PAD,
        width: SIZE - 2 * PAD,
        height: SIZE - 2 * PAD,
        "data-domain": `${-R} ${R}`,
      },
      planeSvg,
    );
    const grid = svg("g", { class: "heads-plane__grid", "aria-hidden": "true" }, planeSvg);
    for (let t = Math.ceil(-R); t <= R; t += 1) {
      svg("line", { x1: px(t), x2: px(t), y1: PAD, y2: SIZE - PAD, class: t ? "" : "axis" }, grid);
      svg("line", { y1: py(t), y2: py(t), x1: PAD, x2: SIZE - PAD, class: t ? "" : "axis" }, grid);
      if (t) {
        svg("text", { x: px(t), y: SIZE - PAD + 14, class: "tick" }, grid).textContent = String(t);
        svg("text", { x: PAD - 6, y: py(t), class: "tick tick--y" }, grid).textContent = String(t);
      }
    }
    const arrow = svg("line", { class: "heads-plane__arrow", x1: px(0), y1: py(0) }, planeSvg);
    // the keys: dots whose area grows with their weight; labels to the right, apart
    const keysLayer = svg("g", { "aria-hidden": "true" }, planeSvg);
    const keyDots = initial.keys1.map(([kx, ky]) =>
      svg("circle", { class: "heads-plane__key", cx: px(kx), cy: py(ky) }, keysLayer),
    );
    const order = tokens.map((_, j) => j).sort((a, b) => py(initial.keys1[a][1]) - py(initial.keys1[b][1]));
    const labelX = Math.max(...initial.keys1.map(([kx]) => px(kx))) + 16;
    const GAP = 15;
    const ys = order.map((j) => py(initial.keys1[j][1]));
    const middle = (ys[0] + ys[ys.length - 1]) / 2;
    order.forEach((j, n) => {
      const y = middle + (n - (order.length - 1) / 2) * GAP;
      const [kx, ky] = initial.keys1[j];
      svg("line", { class: "heads-plane__leader", x1: px(kx), y1: py(ky), x2: labelX - 3, y2: y }, keysLayer);
      svg("text", { class: "heads-plane__label", x: labelX, y }, keysLayer).textContent = tokens[j];
    });
    const handle = svg(
      "g",
      {
        class: "heads-plane__handle",
        role: "slider",
        tabindex: "0",
        "aria-roledescription": "2D slider",
        "aria-valuemin": -R,
        "aria-valuemax": R,
      },
      planeSvg,
    );
    svg("circle", { class: "heads-plane__ring", r: 15 }, handle);
    svg("circle", { class: "heads-plane__dot", r: 9 }, handle);
    const handleLabel = svg("text", { class: "heads-plane__handle-label", y: -15 }, handle);

    const planeCaption = part("plane-caption");
    planeCaption.append("Head 1: the keys (dots, larger for more weight) and the query of ");
    const caption = { token: html("span", {}, planeCaption) };
    planeCaption.append(" (");
    caption.x = html("span", {}, planeCaption);
    planeCaption.append(", ");
    caption.y = html("span", {}, planeCaption);
    caption.moved = html("span", {}, planeCaption);
    planeCaption.append(" Drag it, or focus it and use the arrow keys.");
    const planeTable = html("table", { class: "heads-explorer__key-table" }, part("keys"));
    const planeTableCaption = html("caption", {}, planeTable);
    const planeHead = html("tr", {}, html("thead", {}, planeTable));
    for (const name of ["key of", "x", "y", "score"]) html("th", { scope: "col" }, planeHead, name);
    const scoreHead = planeHead.lastChild;
    const planeBody = html("tbody", {}, planeTable);
    const planeCells = tokens.map((token) => {
      const tr = html("tr", {}, planeBody);
      html("th", { scope: "row" }, tr, token);
      return [html("td", {}, tr), html("td", {}, tr), html("td", {}, tr)];
    });

    function moveQuery(q) {
      if (state.locked !== shown()) {
        state.locked = shown(); // moving a query locks its token
        state.last = state.locked;
      }
      state.query = q.map(snap);
      update();
    }
    const current = () => lastResult.query;
    // from the screen to the plane's drawing: taken when a drag starts (the plane
    // does not move while it lasts), so a move costs no layout
    let toDrawing = null;
    function pointerQuery(event) {
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(toDrawing);
      return [fromPx(point.x), fromPx(SIZE - point.y)];
    }
    let dragging = null;
    planeSvg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      dragging = event.pointerId;
      toDrawing = planeSvg.getScreenCTM().inverse();
      try {
        planeSvg.setPointerCapture(event.pointerId);
      } catch {
        // a pointer the browser does not track (a synthetic one): moves still arrive
      }
      handle.focus({ preventScroll: true });
      moveQuery(pointerQuery(event));
    });
    planeSvg.addEventListener("pointermove", (event) => {
      if (dragging === event.pointerId) moveQuery(pointerQuery(event));
    });
    const stop = (event) => {
      if (dragging === event.pointerId) dragging = null;
    };
    planeSvg.addEventListener("pointerup", stop);
    planeSvg.addEventListener("pointercancel", stop);
    handle.addEventListener("keydown", (event) => {
      const step = event.shiftKey ? 0.25 : 0.05;
      const [x, y] = current();
      const to = {
        ArrowLeft: [x - step, y],
        ArrowRight: [x + step, y],
        ArrowDown: [x, y - step],
        ArrowUp: [x, y + step],
      }[event.key];
      if (to) {
        event.preventDefault();
        moveQuery(to);
      }
    });
    part("reset").addEventListener("click", () => {
      state.query = null;
      update();
    });

    // --- W_o, with a head switched off ---------------------------------------------
    const outputs = part("outputs");
    const outRows = [
      ["out", "W_o's output, from the heads switched on"],
      ["out_both", "with both heads"],
      ["out_wide", "from one wide head, through the same W_o"],
    ].map(([key, label]) => {
      html("dt", {}, outputs, label);
      return [key, vectorElement(html("dd", {}, outputs), 3)];
    });

    // --- the scales: a value that is not a number, or out of range, is refused -------
    function checkScale(input) {
      const error = root.querySelector(`#${input.id}-error`);
      const value = input.value.trim();
      const x = Number(value);
      let problem = "";
      if (input.validity.badInput || value === "" || !Number.isFinite(x)) {
        problem = "Not a number";
      } else if (x < Number(input.min) || x > Number(input.max)) {
        problem = `Out of range: from ${input.min} to ${input.max}`;
      }
      input.setAttribute("aria-invalid", problem ? "true" : "false");
      error.textContent = problem ? `${problem}; the maps keep the last valid scale.` : "";
      if (!problem) state.scales[input.name] = x;
    }

    // --- drawing everything from one result ----------------------------------------------
    const verdict = part("verdict");
    // The maps: each head's weights as cells, rows marked hovered or locked, and
    // the same numbers in their tables.
    function drawMaps(s, r, only = null) {
      const [d1, d2] = r.widths;
      const notes = [
        `width ${d1}, random projections`,
        `width ${d2}, ${s.same ? "head 1's projections" : "set by the controls"}`,
        `width ${d1 + d2}: both heads' columns`,
      ];
      maps.forEach((m, n) => {
        if (only !== null && n !== only) return;
        if (m.note.textContent !== notes[n]) m.note.textContent = notes[n];
        m.rows.forEach(({ row, cells }, a) => {
          row.classList.toggle("is-hover", state.hover === a);
          row.classList.toggle("is-locked", state.locked === a);
          setAttribute(row, "aria-pressed", String(state.locked === a));
          setAttribute(row, "tabindex", a === s.token ? "0" : "-1");
          for (const [b, cell] of cells.entries()) setAttribute(cell, "fill-opacity", String(r[m.key][a][b]));
        });
        for (const [a, row] of tableCells[n].entries()) {
          for (const [b, td] of row.entries()) setNumber(td, `${m.key}.${a}.${b}`, r[m.key][a][b]);
        }
      });
    }

    // The shown token's row, in every map, as bars and numbers.
    function drawRow(r, i) {
      setText(
        rowCaption,
        state.locked === null
          ? `The row of ${tokens[i]} (hovered or shown last; click a row to lock it)`
          : `The row of ${tokens[i]}, locked`,
      );
      rowCells.forEach((cells, j) => {
        cells.forEach(({ bar, value }, n) => {
          const w = r[MAPS[n].key][i][j];
          setNumber(value, `${MAPS[n].key}.${i}.${j}`, w);
          const width = `${(w * 100).toFixed(1)}%`;
          if (bar.style.width !== width) bar.style.width = width;
        });
      });
    }

    // Head 1's query of the shown token among its keys, and the keys' scores.
    function drawPlane(s, r, i) {
      const token = tokens[i];
      const [qx, qy] = r.query;
      for (const [j, dot] of keyDots.entries()) setAttribute(dot, "r", String(2 + 9 * Math.sqrt(r.w1[i][j])));
      setAttribute(arrow, "x2", String(px(qx)));
      setAttribute(arrow, "y2", String(py(qy)));
      setAttribute(handle, "transform", `translate(${px(qx)} ${py(qy)})`);
      if (handleLabel.textContent !== token) handleLabel.textContent = token;
      setAttribute(handle, "aria-label", `head 1's query of ${token}`);
      setAttribute(handle, "aria-valuenow", String(qx));
      setAttribute(handle, "aria-valuetext", `x ${qx.toFixed(2)}, y ${qy.toFixed(2)}`);
      setText(caption.token, token);
      setNumber(caption.x, "query.0", qx);
      setNumber(caption.y, "query.1", qy);
      setText(caption.moved, s.query ? "), moved." : "), its own.");
      part("reset").disabled = !s.query;
      setText(planeTableCaption, `Head 1's keys, and their scores for the query of ${token}`);
      setText(scoreHead, `score (query \u00b7 key / \u221a${r.widths[0]})`);
      planeCells.forEach(([kx, ky, score], j) => {
        setNumber(kx, `keys1.${j}.0`, r.keys1[j][0]);
        setNumber(ky, `keys1.${j}.1`, r.keys1[j][1]);
        setNumber(score, `scores1.${j}`, r.scores1[j]);
      });
    }

    // Whether the second head adds anything: identical weights and contexts.
    function drawVerdict(r) {
      const half = r.both.length / 2; // each head hands on two numbers
      const identical =
        r.w1.every((row, a) => row.every((w, b) => w === r.w2[a][b])) &&
        r.both.slice(0, half).every((c, k) => c === r.both[half + k]);
      setText(
        verdict,
        identical // (a live region: said again only when it changes)
          ? "The two heads are identical: same weights, same context vectors. The second head adds nothing."
          : "The two heads differ: each spends its own attention budget.",
      );
      root.classList.toggle("heads-explorer--identical", identical);
    }

    // Everything the explorer shows, drawn again from one result of explore().
    function update() {
      if (!ready) return; // (a row under the pointer before the explorer is whole)
      const s = settings();
      const r = explore(s);
      lastResult = r;
      for (const name of ["query_reads", "key_reads", "query_scale", "key_scale"]) {
        f[name].disabled = s.same;
      }
      drawMaps(s, r);
      readout();
      drawRow(r, s.token);
      bothVector("both", r.both);
      wideVector("c_wide", r.c_wide);
      drawPlane(s, r, s.token);
      setText(part("outputs-token"), tokens[s.token]);
      for (const [key, show] of outRows) show(key, r[key]);
      drawVerdict(r);
    }

    for (const input of [f.query_scale, f.key_scale]) {
      input.addEventListener("input", () => {
        checkScale(input);
        update();
      });
    }
    for (const name of ["query_reads", "key_reads", "same_as_head_1", "head_1_on", "head_2_on"]) {
      f[name].addEventListener("change", update);
    }
    f.show_tables.addEventListener("change", showTables);
    form.addEventListener("submit", (event) => event.preventDefault());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && (root.contains(event.target) || event.target === document.body)) {
        unlock();
      }
    });
    showTables();
    // the first drawing, a map at a time (then the rest, which draws the maps
    // again from the same settings: unchanged, nothing is written)
    for (const n of MAPS.keys()) {
      await pause();
      drawMaps(settings(), explore(settings()), n);
    }
    await pause();
    ready = true;
    update();
    root.dataset.ready = "true";
  }
})();
