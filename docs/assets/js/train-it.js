// The live trainer on docs/train-it.md: the controls, the drawing, the link. The
// training itself runs in Web Workers (assets/js/trainer.js, fetched when the
// reader first presses Train): one per design for a run, a few for "Train 100
// seeds". Its settings (steps, batch, learning rate, the claims' thresholds) are
// embedded in the page at build time from the Python snippets the page shows
// (hooks/trainer.py), and tests/browser/test_train_it.py checks what it shows
// against PyTorch.
//
// Set up in a task of its own, not in the one that runs the page's
// DOMContentLoaded handlers (Material's): a deferred script runs just before them,
// in the same task, and the two made one of the page's longest tasks under
// Lighthouse's CPU slowdown of 8 (168 ms). The set-up alone, about 4 ms of CPU,
// stays under the 50 ms that count as blocking there.
setTimeout(() => {
  "use strict";

  const root = document.getElementById("train-it");
  const source = document.getElementById("train-it-data");
  if (!root || !source) return;
  const base = JSON.parse(source.textContent);
  // The settings a run trains at: the training page's (base), or each design's own
  // best (base.tuned: the learning rate make tune chose for each, and its steps).
  // config is the settings of the run shown, or being trained.
  const settingsFor = (tuned) => (tuned ? { ...base, steps: base.tuned.steps, own: base.tuned.own } : base);
  let config = base;
  const part = (name) => root.querySelector(`[data-part="${name}"]`);
  const SVG = "http://www.w3.org/2000/svg";
  const form = root.querySelector("form");
  const f = form.elements;
  // The boxes' designs: "2x2", "1x4", "4x1", "1L", "2L", and "h1" to "h4", the heads
  // of how-many-heads' cells, whose number of lookups the form's select sets.
  const BOXES = [...f.design].map((box) => box.value);
  // the designs of one layer, whose claims the training page makes (and 100 seeds
  // train), and those of one head per layer (width-and-depth's)
  const ONE_LAYER = BOXES.filter((d) => config.designs[d]);
  const layersOf = (d) => config.layers[d] ?? 0; // 0: one layer of several heads
  // how-many-heads' cell "k3h2": [k lookups, h heads]; null for another design
  const cellOf = (d) => {
    const found = /^k([1-4])h([1-4])$/.exec(d);
    return found ? [Number(found[1]), Number(found[2])] : null;
  };
  const isDesign = (d) => Boolean(config.designs[d] || layersOf(d) || cellOf(d));
  const plural = (n, word) => `${n} ${word}${n > 1 ? "s" : ""}`;
  function nameOf(d) {
    const layers = layersOf(d);
    if (layers) return layers === 1 ? "1 layer of 1 head" : `${layers} layers of 1 head each`;
    const cell = cellOf(d);
    if (cell) {
      const [k, h] = cell;
      return `${plural(h, "head")} of width ${config.lookups.width / h}, ${plural(k, "lookup")}`;
    }
    const [heads, width] = config.designs[d];
    return `${plural(heads, "head")} of width ${width}`;
  }
  // a head, as the page names it: by its number, or by its layer
  const headName = (d, h) => (layersOf(d) ? `Layer ${h + 1}'s head` : `Head ${h + 1}`);
  // The lookups, in the order of the outputs, and the place each reads from; the depth
  // designs' third place is the one just after the largest key.
  const LOOKUPS = ["v[i\u22121]", "v[max k]", "v[min k]", "v[i\u22122]"];
  const PLACES = ["the previous position", "the largest key", "the smallest key", "two positions back"];
  const AFTER = "the position just after the largest key";
  const T = 6;
  const lookupsOf = (d) => LOOKUPS.slice(0, cellOf(d)?.[0] ?? 2);
  const placesOf = (d) =>
    layersOf(d) ? [...PLACES.slice(0, 2), AFTER] : PLACES.slice(0, lookupsOf(d).length);
  // where each place is in the sequence the maps show, for position t
  const COLUMNS = {
    [PLACES[0]]: (t) => (t + T - 1) % T,
    [PLACES[1]]: () => config.shown_top,
    [PLACES[2]]: () => config.shown_bottom,
    [PLACES[3]]: (t) => (t + T - 2) % T,
    [AFTER]: () => (config.shown_top + 1) % T,
  };
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  // While training, the page redraws at most this often: drawing takes the main
  // thread's share of the processor, which the workers that train need more.
  const FRAME_MS = 100;

  // --- small DOM helpers ---------------------------------------------------------
  const html = (name, attributes = {}, parent = null, text = null) => {
    const el = document.createElement(name);
    for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
    if (text !== null) el.textContent = text;
    if (parent) parent.append(el);
    return el;
  };
  const svg = (name, attributes = {}, parent = null) => {
    const el = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
    if (parent) parent.append(el);
    return el;
  };
  // A number the page shows: its text, and (for the tests) what it is and its value.
  function setNumber(el, key, value, digits = 2) {
    el.dataset.num = key;
    el.dataset.value = String(value);
    el.textContent = value.toFixed(digits);
  }
  const setText = (el, text) => {
    if (el.textContent !== text) el.textContent = text;
  };

  // --- the workers ------------------------------------------------------------------
  // A worker: ask() posts a message and resolves with the worker's "done" reply to
  // it, handing each "frame" on the way to onFrame. The worker answers in order.
  let asked = 0;
  class Trainer {
    constructor() {
      this.worker = new Worker(config.trainer);
      this.pending = new Map(); // id -> what to call with the replies
      this.worker.onmessage = ({ data }) => {
        const call = this.pending.get(data.id);
        if (!call) return;
        if (data.kind === "frame") call.onFrame(data);
        else {
          this.pending.delete(data.id);
          call.resolve(data);
        }
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.fail(new Error(event.message || "the trainer failed"));
      };
    }

    ask(message, onFrame = () => {}, settings = config) {
      asked += 1;
      const id = asked;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject, onFrame });
        this.worker.postMessage({ ...message, id, config: settings });
      });
    }

    fail(error) {
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    }

    stop() {
      this.worker.terminate();
      this.fail(new Stopped());
    }
  }
  class Stopped extends Error {}

  let workers = []; // the workers of the current task; stopped by the next
  let task = 0; // which task is current: a stopped task's replies are ignored
  function stopAll() {
    for (const w of workers) w.stop();
    workers = [];
    task += 1;
    return task;
  }

  // --- the form ---------------------------------------------------------------------
  const status = part("status");
  const seedError = root.querySelector("#train-it-seed-error");
  // a box's design: a cell's heads take the number of lookups from the select
  const designOf = (value) => (value.startsWith("h") ? `k${f.lookups.value}${value}` : value);
  const chosenDesigns = () =>
    [...f.design].filter((box) => box.checked && !box.matches(":disabled")).map((box) => designOf(box.value));

  // Each design's own best settings, or the training page's. How-many-heads' cells
  // were tuned for the page's 800 steps (their rate only): at the own-best settings
  // their boxes are set aside.
  const tunedChosen = () => f.settings.value === "tuned";
  const cellsBox = root.querySelector(".heads-trainer__designs-choice--lookups");
  function showSettings() {
    cellsBox.disabled = tunedChosen();
  }
  for (const radio of f.settings) radio.addEventListener("change", showSettings);
  showSettings(); // a browser may restore the form's choice on reload

  // Any whole number, as Python's random.seed takes it (a BigInt: no size limit).
  function readSeed() {
    const text = f.seed.value.trim();
    const ok = /^[-+]?\d+$/.test(text);
    f.seed.setAttribute("aria-invalid", ok ? "false" : "true");
    seedError.textContent = ok ? "" : "A seed is a whole number, such as 0, 7 or -12.";
    return ok ? BigInt(text) : null;
  }

  const stopButton = root.querySelector("[data-action='stop']");
  function setBusy(busy) {
    if (busy) root.dataset.state = "training";
    else if (root.dataset.state === "training") root.dataset.state = "idle";
    stopButton.disabled = !busy;
  }

  // --- the loss chart -------------------------------------------------------------
  const WIDE = 600;
  const HIGH = 250;
  const PAD = { left: 84, right: 30, top: 14, bottom: 52 };
  // log10 of the lowest and the highest loss drawn; one outside would be drawn at the
  // edge (the page says so): the recorded runs of one lookup end near 4e-7, and runs
  // that blow up early pass 10
  const [LOW, HIGHEST] = [-7, 2];
  const xOf = (step) => PAD.left + (step / config.steps) * (WIDE - PAD.left - PAD.right);
  const yOf = (loss) => {
    const l = Math.max(LOW, Math.min(HIGHEST, Math.log10(loss)));
    return PAD.top + ((HIGHEST - l) / (HIGHEST - LOW)) * (HIGH - PAD.top - PAD.bottom);
  };
  const lossSvg = svg("svg", {
    viewBox: `0 0 ${WIDE} ${HIGH}`,
    role: "img",
    "aria-labelledby": "train-it-loss-caption",
    class: "heads-trainer__chart",
  });
  part("loss").append(lossSvg);
  const axes = svg("g", { class: "heads-trainer__axes", "aria-hidden": "true" }, lossSvg);
  const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  const power = (e) =>
    e >= 0 ? String(10 ** e) : `10⁻${[...String(-e)].map((d) => SUPERSCRIPT[d]).join("")}`;
  for (let e = HIGHEST; e >= LOW; e -= 1) {
    const y = yOf(10 ** e);
    svg("line", { x1: PAD.left, x2: WIDE - PAD.right, y1: y, y2: y, class: "grid" }, axes);
    svg("text", { x: PAD.left - 6, y, class: "tick tick--y" }, axes).textContent = power(e);
  }
  const stepTicks = svg("g", {}, axes);
  svg("text", { x: (PAD.left + WIDE - PAD.right) / 2, y: HIGH - 6, class: "label" }, axes).textContent =
    "step";
  const marker = svg(
    "line",
    {
      class: "heads-trainer__marker",
      y1: PAD.top,
      y2: HIGH - PAD.bottom,
    },
    lossSvg,
  );
  const legend = html("ul", { class: "heads-trainer__legend" }, part("loss"));
  let curves = {}; // design -> its curve, for the designs of the run shown
  // A design's curve and its line in the legend; a cell's colour is its heads'.
  function legendFor(d) {
    const look = `heads-trainer__curve heads-trainer__curve--${cellOf(d) ? `h${cellOf(d)[1]}` : d}`;
    curves[d] = svg("path", { class: look }, lossSvg);
    const item = html("li", {}, legend);
    const swatch = svg("svg", { viewBox: "0 0 30 10", "aria-hidden": "true" }, item);
    svg("line", { x1: 0, x2: 30, y1: 5, y2: 5, class: look }, swatch);
    item.append(nameOf(d));
  }
  function drawLosses(losses, upTo) {
    // losses: design -> its losses so far; upTo: the last step drawn
    for (const d of Object.keys(curves)) {
      const l = losses[d];
      if (!l) {
        curves[d].setAttribute("d", "");
        continue;
      }
      const n = Math.min(upTo, l.length);
      let path = "";
      for (let s = 0; s < n; s += 1) {
        path += `${s ? "L" : "M"}${xOf(s + 1).toFixed(1)} ${yOf(l[s]).toFixed(1)}`;
      }
      curves[d].setAttribute("d", path);
    }
    marker.setAttribute("x1", xOf(upTo));
    marker.setAttribute("x2", xOf(upTo));
  }

  // --- a panel for each design: its heads' maps, its accuracy, switching heads off --
  const panels = part("panels");
  const tablesBox = part("tables");
  const CELL = 22;
  const LEFT = 22;
  const TOP = 22;
  let shown = {}; // design -> its panel's parts

  function panelFor(design, index) {
    const layers = layersOf(design);
    const heads = layers || cellOf(design)?.[1] || config.designs[design][0];
    const places = placesOf(design); // where a head looks, for the tables
    const lookups = lookupsOf(design);
    const box = html(
      "section",
      {
        class: `heads-trainer__design heads-trainer__design--${design}`,
        "aria-label": nameOf(design),
      },
      panels,
    );
    html("p", { class: "heads-trainer__design-title" }, box, nameOf(design));
    const maps = html("div", { class: "heads-trainer__maps" }, box);
    const headMaps = [];
    for (let h = 0; h < heads; h += 1) {
      const figure = html("figure", { class: "heads-trainer__map" }, maps);
      html("figcaption", {}, figure, headName(design, h));
      const side = LEFT + T * CELL;
      const viewBox = `0 0 ${side + 2} ${TOP + T * CELL + 2}`;
      const map = svg("svg", { viewBox, role: "img" }, figure);
      for (let u = 0; u < T; u += 1) {
        // the largest key: a star; the smallest, where a lookup reads it, a white one
        const smallest = u === config.shown_bottom && lookups.length > 2;
        const label = u === config.shown_top ? `${u}\u2605` : smallest ? `${u}\u2606` : String(u);
        const middle = u * CELL + CELL / 2;
        svg("text", { x: LEFT + middle, y: TOP - 6, class: "col" }, map).textContent = label;
        svg("text", { x: LEFT - 5, y: TOP + middle, class: "row" }, map).textContent = String(u);
      }
      const cells = [];
      for (let t = 0; t < T; t += 1) {
        for (let u = 0; u < T; u += 1) {
          cells.push(
            svg(
              "rect",
              {
                x: LEFT + u * CELL,
                y: TOP + t * CELL,
                width: CELL,
                height: CELL,
                class: "heads-trainer__cell",
                "data-cell": `${design}.${h}.${t}.${u}`,
                "fill-opacity": "0",
              },
              map,
            ),
          );
        }
      }
      headMaps.push({ map, cells });
    }
    const accuracy = html("dl", { class: "heads-trainer__accuracy" }, box);
    const bars = lookups.map((name) => {
      html("dt", {}, accuracy, name);
      const dd = html("dd", {}, accuracy);
      const track = html("span", { class: "heads-trainer__track", "aria-hidden": "true" }, dd);
      const bar = html("span", { class: "heads-trainer__bar" }, track);
      return { bar, value: html("span", { class: "heads-trainer__value" }, dd) };
    });
    const accuracyNote = html("p", { class: "heads-trainer__note" }, box);
    const verdict = html("p", { class: "heads-trainer__verdict" }, box);
    const off = html("fieldset", { class: "heads-trainer__off", disabled: "" }, box);
    html(
      "legend",
      {},
      off,
      layers
        ? "Switch a layer's head off: its write into the stream (after training)"
        : "Switch a head off (after training)",
    );
    const switches = [];
    for (let h = 0; h < heads; h += 1) {
      const label = html("label", {}, off, `${headName(design, h)} `);
      const select = html("select", { name: `off-${design}-${h}` }, label);
      for (const [value, text] of [
        ["on", "on"],
        ["zero", "zeroed"],
        ["mean", "set to its mean"],
      ]) {
        html("option", { value }, select, text);
      }
      select.addEventListener("change", () => ablate(design));
      switches.push(select);
    }
    const offResult = html("p", { class: "heads-trainer__off-result", "aria-live": "polite" }, off);
    // the numbers, as a table (always in the page; the checkbox shows it)
    const table = html("table", { class: "heads-trainer__table" }, tablesBox);
    html("caption", {}, table, `${nameOf(design)}: the numbers at the step shown`);
    const body = html("tbody", {}, table);
    const row = (label) => {
      const tr = html("tr", {}, body);
      html("th", { scope: "row" }, tr, label);
      return html("td", {}, tr);
    };
    const cellsOf = {
      loss: row("loss at this step"),
      accuracy: lookups.map((name) => row(`accuracy on ${name}, this step's batch`)),
      looks: Array.from({ length: heads }, (_, h) =>
        places.map((place) => row(`${headName(design, h)}: weight on ${place}`)),
      ),
    };
    legendFor(design);
    return {
      design,
      index,
      heads,
      layers,
      lookups,
      places,
      maps: headMaps,
      bars,
      accuracyNote,
      verdict,
      off,
      switches,
      offResult,
      cellsOf,
    };
  }

  // Where a head's rows put their weight, for the shown sequence: the mean over its
  // rows of the weight on each of `places`.
  function looksOf(maps, h, places) {
    const sums = places.map(() => 0);
    for (let t = 0; t < T; t += 1) {
      const row = (h * T + t) * T;
      places.forEach((place, i) => {
        sums[i] += maps[row + COLUMNS[place](t)];
      });
    }
    return sums.map((x) => x / T);
  }

  // One design's frame: its maps and the accuracy on the batch of that step.
  function drawFrame(p, frame, step, loss) {
    p.maps.forEach(({ map, cells }, h) => {
      cells.forEach((cell, i) => {
        cell.setAttribute("fill-opacity", String(frame.maps[h * T * T + i]));
      });
      const looks = looksOf(frame.maps, h, p.places);
      const said = looks.map((x, i) => `${x.toFixed(2)}${i ? "" : " of their weight"} on ${p.places[i]}`);
      map.setAttribute(
        "aria-label",
        `${headName(p.design, h)} at step ${step}, ` +
          `position ${config.shown_top} holding the largest key: ` +
          `its rows put ${said.slice(0, -1).join(", ")} and ${said.at(-1)}, on average`,
      );
      looks.forEach((x, i) => {
        setNumber(p.cellsOf.looks[h][i], `${p.design}.looks.${h}.${i}`, x);
      });
    });
    const accuracy = frame.accuracy ?? p.lookups.map(() => NaN);
    p.bars.forEach(({ bar, value }, i) => {
      const a = accuracy[i];
      bar.style.width = Number.isNaN(a) ? "0" : `${(a * 100).toFixed(1)}%`;
      if (Number.isNaN(a)) value.textContent = "\u2013";
      else setNumber(value, `${p.design}.accuracy.${i}`, a);
      if (Number.isNaN(a)) p.cellsOf.accuracy[i].textContent = "\u2013";
      else setNumber(p.cellsOf.accuracy[i], `${p.design}.accuracy.${i}`, a);
    });
    setText(
      p.accuracyNote,
      step === 0
        ? "Accuracy: none yet, before the first step."
        : `Accuracy on step ${step}'s batch: the share of outputs within ${config.tol} of the ` + "target.",
    );
    if (loss === undefined) p.cellsOf.loss.textContent = "\u2013";
    else setNumber(p.cellsOf.loss, `${p.design}.loss`, loss, 6);
  }

  // --- one run: the chosen designs from one seed ------------------------------------
  let current = null; // the run shown: designs, seed, frames, losses, results
  const stepInput = root.querySelector("#train-it-step");
  const stepValue = part("step-value");
  // the step axis, the slider and its label, for config's steps
  function drawSteps() {
    stepTicks.textContent = "";
    for (let step = 0; step <= config.steps; step += config.steps / 4) {
      const tick = svg("text", { x: xOf(step), y: HIGH - PAD.bottom + 22, class: "tick" }, stepTicks);
      tick.textContent = String(step);
    }
    part("steps").textContent = String(config.steps);
    stepInput.max = String(config.steps);
  }
  drawSteps();
  stepInput.step = String(config.every);
  const link = part("link");

  function draw(step) {
    if (!current) return;
    const index = Math.round(step / config.every);
    for (const p of Object.values(shown)) {
      const frame = current.frames[p.design][index];
      if (frame) drawFrame(p, frame, step, current.losses[p.design][step - 1]);
    }
    drawLosses(current.losses, step);
    stepValue.textContent = String(step);
    stepInput.value = String(step);
    stepInput.setAttribute("aria-valuetext", `step ${step} of ${config.steps}`);
  }

  const hashOf = (designs, seed, step, tuned) =>
    `#designs=${designs.join(",")}&seed=${seed}&step=${step}${tuned ? "&settings=tuned" : ""}`;

  async function trainRun(designs, seed, tuned, showStep = null) {
    const me = stopAll();
    config = settingsFor(tuned);
    drawSteps();
    setBusy(true);
    part("seeds").hidden = root.dataset.seedsShown !== "true";
    part("run").hidden = false;
    panels.textContent = "";
    tablesBox.textContent = "";
    for (const curve of Object.values(curves)) curve.remove();
    curves = {};
    legend.textContent = "";
    shown = Object.fromEntries(designs.map((d, i) => [d, panelFor(d, i)]));
    current = {
      designs,
      seed: String(seed),
      tuned,
      results: null,
      step: 0,
      frames: Object.fromEntries(designs.map((d) => [d, []])),
      losses: Object.fromEntries(designs.map((d) => [d, []])),
    };
    const run = current;
    stepInput.disabled = true;
    link.hidden = true;
    drawLosses(run.losses, 0);
    const animate = !reducedMotion.matches;
    status.textContent =
      `Training ${designs.map(nameOf).join(" and ")}, seed ${seed}` +
      (tuned ? ", each at its own best settings" : "") +
      (animate ? "\u2026" : ": drawn when done, as your system asks for less motion\u2026");
    let pending = false; // a frame waiting to be drawn
    let drawn = 0; // when the last was (performance.now())
    const latest = Object.fromEntries(designs.map((d) => [d, 0]));
    const redraw = () => {
      pending = false;
      drawn = performance.now();
      if (current !== run || run.results) return;
      for (const d of designs) {
        const step = latest[d];
        const frame = run.frames[d][step / config.every];
        if (frame) drawFrame(shown[d], frame, step, run.losses[d][step - 1]);
      }
      const slowest = Math.min(...Object.values(latest));
      drawLosses(run.losses, Math.max(...Object.values(latest)));
      marker.setAttribute("x1", xOf(slowest));
      marker.setAttribute("x2", xOf(slowest));
      stepValue.textContent = String(slowest);
      stepInput.value = String(slowest);
    };
    const started = performance.now();
    workers = designs.map(() => new Trainer());
    try {
      const replies = await Promise.all(
        designs.map((d, i) =>
          workers[i].ask(
            { kind: "train", designs: [d], seed: String(seed), every: config.every },
            (frame) => {
              const [mine] = frame.designs;
              run.frames[d][frame.step / config.every] = mine;
              run.losses[d].push(...mine.losses);
              latest[d] = frame.step;
              if (animate && !pending) {
                pending = true; // drawn at the next frame, FRAME_MS after the last
                const wait = drawn + FRAME_MS - performance.now();
                setTimeout(() => requestAnimationFrame(redraw), Math.max(0, wait));
              }
            },
          ),
        ),
      );
      const runs = replies.map((r) => r.runs[0]);
      const measured = runs.map(({ design, after, before }) => ({ design, after, before }));
      const { broken } = await workers[0].ask({ kind: "verdicts", runs: measured });
      if (me !== task) return;
      run.seconds = (performance.now() - started) / 1000;
      run.results = Object.fromEntries(runs.map((r, i) => [r.design, { ...r, broken: broken[i] }]));
      run.losses = Object.fromEntries(runs.map((r) => [r.design, r.losses]));
      finish(run, showStep ?? config.steps);
    } catch (error) {
      if (error instanceof Stopped || me !== task) return;
      status.textContent = `The trainer stopped with an error: ${error.message}`;
      throw error;
    } finally {
      if (me === task) setBusy(false);
    }
  }

  function finish(run, showStep) {
    const frame = Math.round(showStep / config.every) * config.every; // a step with a frame
    const step = Math.max(0, Math.min(config.steps, frame));
    for (const p of Object.values(shown)) {
      const r = run.results[p.design];
      const accuracy = r.after.correct.map((c) => c / r.after.total);
      p.verdict.textContent = "";
      p.verdict.append(`Held out, after training: accuracy `);
      accuracy.forEach((a, i) => {
        p.verdict.append(`${i ? ", " : ""}${p.lookups[i]} `);
        setNumber(html("span", {}, p.verdict), `${p.design}.held-out.${i}`, a);
      });
      p.verdict.append(". ");
      if (p.layers || cellOf(p.design)) looksVerdict(p, r);
      else if (r.broken.length) {
        // four heads: the training page's claims about two, as this page extends them
        const whose =
          p.design === "4x1"
            ? "this page's extension of the training page's claims"
            : "the training page's claims";
        p.verdict.append(`It breaks ${whose}: ${r.broken.join("; ")}.`);
      } else if (unchecked(run, p.design))
        p.verdict.append(`It meets the claim about its accuracy. ${UNCHECKED}`);
      else p.verdict.append("It meets every claim the training page checks for each seed.");
      p.verdict.dataset.broken = JSON.stringify(r.broken);
      p.off.disabled = false;
      p.switches.forEach((s) => {
        s.value = "on";
      });
      p.offResult.textContent = "";
    }
    stepInput.disabled = false;
    draw(step);
    link.hidden = false;
    updateLink(step);
    root.dataset.state = "done";
    root.results = run.results; // for the tests: losses, weights, measures, verdicts
    root.dataset.seconds = String(run.seconds); // for the benchmark
    status.textContent =
      `Trained seed ${run.seed} in ${run.seconds.toFixed(1)} s. ` +
      Object.values(shown)
        .map((p) => `${nameOf(p.design)}: ${outcome(p.design, run.results[p.design], run)}`)
        .join("; ") +
      ".";
  }

  // Held out, within tol of the target on each lookup often enough (0.85 of the
  // outputs): the training page's "accurate on both lookups".
  const accurateOnBoth = (after) =>
    Math.min(...after.correct) / after.total >= config.claims.two_heads_min_accuracy;

  // "both lookups", "all 3 lookups": every lookup of a design
  const everyLookup = (k) => (k === 1 ? "its one lookup" : k === 2 ? "both lookups" : `all ${k} lookups`);

  // A depth design, or a cell of how-many-heads: what width-and-depth and
  // how-many-heads count, on the held-out sequences: whether it is accurate on
  // every lookup, and where each head (each layer's) puts most weight.
  function looksVerdict(p, r) {
    const every = accurateOnBoth(r.after);
    const looksAt = config.claims.role_min_attention; // width-and-depth's "looks there"
    const n = p.places.length;
    p.verdict.dataset.both = String(every);
    p.verdict.append(
      `${every ? "Accurate" : "Not accurate"} on ${everyLookup(p.lookups.length)} ` +
        `(${config.claims.two_heads_min_accuracy} or more on each). ` +
        `Where each ${p.layers ? "layer's head" : "head"} puts the most weight: `,
    );
    const none = `on none of the ${["", "two", "three", "four"][n - 1]} places`;
    for (let h = 0; h < p.heads; h += 1) {
      const looks = r.after.looks.slice(h * n, h * n + n); // the places, in p.places' order
      const most = looks.indexOf(Math.max(...looks));
      const name = `${h ? "; " : ""}${p.layers ? "layer" : "head"} ${h + 1}'s`;
      p.verdict.append(
        looks[most] >= looksAt
          ? `${name} on ${p.places[most]} (`
          : n === 1
            ? `${name} on ${p.places[0]}, with less than ${looksAt} of it (`
            : `${name} ${none} with ${looksAt} of it (most on ${p.places[most]}, `,
      );
      setNumber(html("span", {}, p.verdict), `${p.design}.held-looks.${h}.${most}`, looks[most]);
      p.verdict.append(")");
    }
    p.verdict.append(".");
  }

  // One head's error is judged against two heads of width 2 trained from the same
  // seed (trainer.js, broken): a run without them leaves that claim unchecked.
  const unchecked = (run, d) => config.designs[d][0] === 1 && !run.results["2x2"];
  const UNCHECKED =
    "Its error is compared with two heads of width 2 only when they train beside it: tick them too.";

  // What the status line says of a design's run: the training page's claims, or
  // for a depth design whether it is accurate on both lookups.
  function outcome(d, r, run) {
    if (layersOf(d) || cellOf(d)) {
      const every = everyLookup(lookupsOf(d).length);
      return accurateOnBoth(r.after) ? `accurate on ${every}` : `not accurate on ${every}`;
    }
    if (r.broken.length) return `breaks ${r.broken.length} of the claims`;
    return unchecked(run, d) ? "meets the claim about its accuracy" : "meets every claim";
  }

  function updateLink(step) {
    const hash = hashOf(current.designs, current.seed, step, current.tuned);
    link.href = hash;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  stepInput.addEventListener("input", () => {
    if (!current?.results) return;
    const step = Number(stepInput.value);
    draw(step);
    updateLink(step);
  });

  // --- switching heads off, after training ------------------------------------------
  async function ablate(design) {
    const p = shown[design];
    const worker = workers[current.designs.indexOf(design)];
    if (!worker || !current.results) return;
    const removed = p.switches.map((s) => s.value);
    const me = task;
    const { measured } = await worker.ask({ kind: "ablate", design, removed });
    if (me !== task) return;
    const whole = current.results[design].after;
    p.offResult.textContent = "";
    if (removed.every((how) => how === "on")) {
      p.offResult.textContent = "Every head is on.";
      return;
    }
    p.offResult.append("Held-out accuracy with these heads switched off: ");
    p.lookups.forEach((name, i) => {
      p.offResult.append(`${i ? "; " : ""}${name} `);
      const off = measured.correct[i] / measured.total;
      setNumber(html("span", {}, p.offResult), `${design}.off.${i}`, off);
      p.offResult.append(" (with every head: ");
      const on = whole.correct[i] / whole.total;
      setNumber(html("span", {}, p.offResult), `${design}.held-out.${i}`, on);
      p.offResult.append(")");
    });
    p.offResult.append(".");
    p.offResult.dataset.removed = removed.join(",");
  }

  // --- 100 seeds ------------------------------------------------------------------------
  const seedsBox = part("seeds");
  const ratesTable = part("rates");
  const ratesBody = ratesTable.querySelector("tbody");
  const progress = part("seeds-progress");
  // the table's words for the designs of one layer; how-many-heads' cells have their own
  const headings = [...ratesTable.querySelectorAll("thead th")];
  const CLAIMS_WORDS = [ratesTable.caption.textContent, ...headings.map((th) => th.textContent)];
  const CELL_WORDS = [
    "For each cell: in how many of the seeds trained so far it is accurate on every lookup " +
      "(0.85 or more on each), and in how many of the same seeds PyTorch's run is",
    "design",
    "accurate on every lookup",
    "PyTorch, the same seeds",
    "seeds that fail",
  ];

  // Seeds start to start + 99: the designs of one layer, judged by the training
  // page's claims, or the cells of how-many-heads chosen (`cells`), judged by
  // whether they are accurate on every lookup, beside PyTorch's count where
  // make twin-lookups trained the same seeds.
  // The designs of one layer (at the training page's settings, or each at its own
  // best), or the cells ticked: as many seeds from `start` as make twin trained.
  async function trainSeeds(start, cells = [], tuned = false) {
    const me = stopAll();
    setBusy(true);
    root.dataset.seedsShown = "true";
    seedsBox.hidden = false;
    const designs = cells.length ? cells : ONE_LAYER;
    const settings = settingsFor(tuned && !cells.length); // for these seeds, not the run shown
    const count = config.seeds[1] - config.seeds[0];
    const seeds = Array.from({ length: count }, (_, i) => start + BigInt(i));
    part("seeds-title").textContent = `Seeds ${seeds[0]} to ${seeds[count - 1]}`;
    const words = cells.length ? CELL_WORDS : CLAIMS_WORDS;
    ratesTable.caption.textContent = words[0];
    headings.forEach((th, i) => {
      th.textContent = words[i + 1];
    });
    const records = new Map();
    root.seedRecords = records;
    const rows = Object.fromEntries(
      designs.map((d) => {
        const tr = html("tr", { "data-design": d });
        html("th", { scope: "row" }, tr, nameOf(d));
        const [first, second, failing] = [0, 1, 2].map(() => html("td", {}, tr));
        return [
          d,
          cells.length
            ? { accurate: first, pytorch: second, failing }
            : { meets: first, accurate: second, failing },
        ];
      }),
    );
    ratesBody.replaceChildren(...Object.values(rows).map((r) => r.failing.parentElement));
    const theirs = `${config.lookups.seeds[0]}` === `${start}`; // make twin-lookups' seeds
    for (const d of cells) {
      const pytorch = config.lookups.pytorch[cellOf(d).join(",")];
      rows[d].pytorch.textContent = theirs ? `${pytorch} of ${count}` : "\u2013";
      if (theirs) rows[d].pytorch.dataset.value = String(pytorch);
      else
        rows[d].pytorch.title =
          `PyTorch trained seeds ${config.lookups.seeds[0]} to ${config.lookups.seeds[1] - 1}`;
    }
    const fails = (d, r) => (cells.length ? !accurateOnBoth(r[d].after) : r[d].broken.length > 0);
    const why = (d, r) =>
      cells.length
        ? `accuracy ${r[d].after.correct.map((c) => (c / r[d].after.total).toFixed(2)).join(", ")}`
        : r[d].broken.join("; ");
    const show = () => {
      const done = [...records.values()];
      const end = done.length === count ? "." : "\u2026";
      progress.textContent = `${done.length} of ${count} seeds trained${end}`;
      for (const d of designs) {
        const accurate = done.filter((r) => accurateOnBoth(r[d].after)).length;
        rows[d].accurate.textContent = `${accurate} of ${done.length}`;
        rows[d].accurate.dataset.value = String(accurate);
        if (!cells.length) {
          const meets = done.filter((r) => r[d].broken.length === 0).length;
          rows[d].meets.textContent = `${meets} of ${done.length}`;
          rows[d].meets.dataset.value = String(meets);
        }
        const failing = [...records.entries()]
          .filter(([, r]) => fails(d, r))
          .map(([s]) => s)
          .sort((a, b) => (a < b ? -1 : 1));
        rows[d].failing.replaceChildren(
          ...failing.flatMap((s, i) => {
            const href = hashOf(designs, s, settings.steps, settings !== base);
            const a = html("a", { href }, null, String(s));
            a.title = `seed ${s}: ${why(d, records.get(s))}`;
            return i ? [", ", a] : [a];
          }),
        );
        if (!failing.length) rows[d].failing.textContent = "none";
      }
    };
    show();
    const what = cells.length
      ? designs.map(nameOf).join(" and ")
      : `the designs of one layer${settings === base ? "" : ", each at its own best settings"}`;
    status.textContent = `Training seeds ${seeds[0]} to ${seeds[count - 1]}, ${what}\u2026`;
    const started = performance.now();
    const queue = [...seeds];
    const n = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
    workers = Array.from({ length: Math.min(n, count) }, () => new Trainer());
    try {
      await Promise.all(
        workers.map(async (worker) => {
          while (queue.length && me === task) {
            const seed = queue.shift();
            const { runs } = await worker.ask(
              { kind: "train", designs, seed: String(seed), every: 0, lean: true },
              undefined,
              settings,
            );
            const { broken } = await worker.ask({ kind: "verdicts", runs }, undefined, settings);
            if (me !== task) return;
            const record = runs.map((r, i) => [r.design, { after: r.after, broken: broken[i] }]);
            records.set(seed, Object.fromEntries(record));
            show();
          }
        }),
      );
      if (me !== task) return;
      const seconds = (performance.now() - started) / 1000;
      status.textContent = `Trained ${count} seeds, ${what}, in ${seconds.toFixed(0)} s.`;
      root.dataset.state = "seeds-done";
    } catch (error) {
      if (error instanceof Stopped || me !== task) return;
      status.textContent = `The trainer stopped with an error: ${error.message}`;
      throw error;
    } finally {
      if (me === task) {
        setBusy(false);
        if (records.size === count) root.dataset.state = "seeds-done";
      }
    }
  }

  // --- what starts it: the buttons, and a link with a run in it -------------------------
  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has("seed")) return false;
    const tuned = params.get("settings") === "tuned"; // the cells have no own best
    const wanted = (d) => isDesign(d) && !(tuned && cellOf(d));
    const designs = (params.get("designs") || "").split(",").filter(wanted);
    if (!designs.length) return false;
    f.settings.value = tuned ? "tuned" : "page";
    showSettings();
    // the form shows what the link holds: a cell's number of lookups in the select
    const cell = designs.map(cellOf).find(Boolean);
    if (cell) f.lookups.value = String(cell[0]);
    for (const box of f.design) box.checked = designs.includes(designOf(box.value));
    f.seed.value = params.get("seed");
    const seed = readSeed();
    if (seed === null) return false;
    const step = Number(params.get("step") ?? Number.NaN);
    trainRun(designs, seed, tuned, Number.isFinite(step) ? step : null);
    return true;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const seed = readSeed();
    const designs = chosenDesigns();
    if (seed === null) return;
    if (!designs.length) {
      status.textContent = "Choose at least one design to train.";
      return;
    }
    trainRun(designs, seed, tunedChosen());
  });
  root.querySelector("[data-action='seeds']").addEventListener("click", () => {
    const seed = readSeed();
    if (seed !== null) trainSeeds(seed, chosenDesigns().filter(cellOf), tunedChosen());
  });
  stopButton.addEventListener("click", () => {
    stopAll();
    setBusy(false);
    status.textContent = "Stopped.";
  });
  f.seed.addEventListener("input", () => {
    if (f.seed.getAttribute("aria-invalid") === "true") readSeed();
  });
  const tablesSwitch = root.querySelector("input[name='show_tables']");
  const showTables = () => tablesBox.classList.toggle("heads-visually-hidden", !tablesSwitch.checked);
  tablesSwitch.addEventListener("change", showTables);
  showTables();
  window.addEventListener("hashchange", () => {
    if (!fromHash()) return;
    const behavior = reducedMotion.matches ? "auto" : "smooth";
    part("run").scrollIntoView({ block: "start", behavior });
  });
  setBusy(false);
  fromHash();
  root.dataset.ready = "true";
}, 0);
