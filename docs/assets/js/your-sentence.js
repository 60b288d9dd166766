// The live explorer on docs/your-sentence.md: all-MiniLM-L6-v2 in the browser.
//
// Before "Load the model", the maps shown are the example sentences' as PyTorch
// computed them when the site was built (embedded in the page by
// hooks/live_model.py). Nothing else is fetched until the reader presses the
// button; then the model (exported to ONNX and quantised at build time), the
// onnxruntime-web runtime (single-threaded WebAssembly, served from this site) and
// the model's own tokenizer.json come down, and every map is computed here, for
// the reader's own text. tests/browser/test_your_sentence.py reads what this file
// shows and compares it with PyTorch (snippets/your_sentence/ex01_reference.py).

const LAYERS = 6;
const HEADS = 12;
const UNK = "[UNK]";
const DEBOUNCE_MS = 200;
const ROLES = ["previous token", "next token", "on [CLS]", "on [SEP]"];

const root = document.getElementById("your-sentence");
const source = document.getElementById("your-sentence-data");
const script = document.querySelector("script[data-assets]");
if (root && source && script) main();

// --- when: built as it nears the screen, or bit by bit when the browser is idle ---
// Built at load, the 72 thumbnails (a button and a canvas each, drawn one by one)
// and the large map were a long task of the page's start-up, on a page whose first
// screen shows only the prose above them. Now each layer's row is built, and later
// drawn, in an idle moment of its own (the page stays responsive meanwhile), and
// whatever is left is done at once when a part the script draws comes within a
// quarter of a screen's height of the screen, when the explorer gets the focus,
// or before the page is printed. (`pause` waits for the next idle moment, or for
// nothing once in a hurry.)
function whenNeeded() {
  const idle = window.requestIdleCallback ?? ((go) => setTimeout(go, 1));
  let urgent = false;
  let wake = null; // ends the wait for an idle moment
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
  for (const drawn of root.querySelectorAll(".heads-live__tokens, .heads-live__grid, .heads-live__detail")) {
    near.observe(drawn);
  }
  root.addEventListener("focusin", hurry);
  addEventListener("beforeprint", hurry);
  return () =>
    urgent
      ? null
      : new Promise((resolve) => {
          wake = resolve;
          idle(resolve);
        });
}

async function main() {
  const pause = whenNeeded();
  await pause();
  const data = JSON.parse(source.textContent);
  const assets = new URL(script.dataset.assets, document.baseURI);
  const $ = (selector) => root.querySelector(selector);
  const out = (name) => root.querySelector(`[data-out='${name}']`);
  const form = $("form");
  const loadButton = $("[data-action='load']");
  const progress = $("progress");
  const grid = $(".heads-live__grid");
  const bigMap = $(".heads-live__map");
  const offBox = $("input[name='off']");

  const totalBytes = Object.values(data.downloads).reduce((a, b) => a + b, 0);
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  loadButton.textContent = `Load the model (${mb(totalBytes)} MB)`;

  // --- state -------------------------------------------------------------------
  let shown = null; // what the maps show: {text, tokens, T, weights, ...}
  let locked = null; // the head clicked on: [layer, head], or null
  let hovered = null;
  let rowShown = null; // the token whose row is spelled out
  let layout = null; // the large map's label width and cell size, in CSS pixels
  let boxWidth = 0; // the width of the large map's box (0: not laid out yet)
  let ready = false; // every part is built and the first example shown
  const off = new Set(); // heads switched off, as layer * 12 + head
  let session = null; // the model, once loaded
  let ort = null;
  let tokenizer = null;

  // --- the examples, computed by PyTorch at build time ---------------------------
  const exampleSelect = form.elements.example;
  for (const [i, e] of data.examples.entries()) exampleSelect.add(new Option(e.text, String(i)));
  const fromExample = (e) => ({
    text: e.text,
    other: e.other,
    tokens: e.tokens,
    T: e.tokens.length,
    weights: Float32Array.from(e.weights.flat(3), (x) => x / 100),
    off: [],
    embedding: null,
    similarity: { with: e.similarity, without: null, self: null },
    truncated: false,
    live: false,
  });

  // --- arithmetic ------------------------------------------------------------------
  // The (T x T) map of one head inside the flat (6, 12, T, T) array.
  const map = (result, layer, head) => {
    const size = result.T * result.T;
    const start = (layer * HEADS + head) * size;
    return result.weights.subarray(start, start + size);
  };
  const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

  // A head's mean weight on four targets over the word tokens 1 .. T - 2, as
  // pattern_scores on the real-model page: the token before, the token after,
  // [CLS] (first) and [SEP] (last). null where there is no such row.
  function roles(result, layer, head) {
    const w = map(result, layer, head);
    const T = result.T;
    const mean = (rows, column) =>
      rows.length ? rows.reduce((s, i) => s + w[i * T + column(i)], 0) / rows.length : null;
    const words = Array.from({ length: Math.max(T - 2, 0) }, (_, i) => i + 1);
    return [
      mean(words.slice(1), (i) => i - 1),
      mean(words.slice(0, -1), (i) => i + 1),
      mean(words, () => 0),
      mean(words, () => T - 1),
    ];
  }

  // --- the model -------------------------------------------------------------------
  async function download(name, onBytes, signal) {
    const response = await fetch(new URL(name, assets), { signal });
    if (!response.ok) throw new Error(`${name}: the server answered ${response.status}`);
    const size = data.downloads[name];
    const body = new Uint8Array(size);
    const reader = response.body.getReader();
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > size) throw new Error(`${name} is larger than expected`);
      body.set(value, received);
      received += value.length;
      onBytes(value.length);
    }
    if (received !== size) throw new Error(`${name}: ${received} of ${size} bytes arrived`);
    return body;
  }

  async function load() {
    loadButton.disabled = true;
    root.dataset.state = "loading";
    progress.hidden = false;
    progress.value = 0;
    let received = 0;
    const status = out("status");
    const stop = new AbortController(); // one download fails: the others stop
    const tick = (n) => {
      if (stop.signal.aborted) return;
      received += n;
      progress.value = received / totalBytes;
      status.textContent = `Downloading: ${mb(received)} of ${mb(totalBytes)} MB`;
    };
    tick(0);
    try {
      const [model, wasm, tokenizerJson] = await Promise.all(
        ["model.onnx", "ort/ort-wasm-simd-threaded.wasm", "tokenizer.json"].map((name) =>
          download(name, tick, stop.signal),
        ),
      );
      performance.mark("heads-downloaded"); // for benchmarks/bench_live_model.py
      status.textContent = "Starting the model…";
      const [runtime, library, config] = await Promise.all([
        import(new URL("ort/ort.wasm.min.mjs", assets).href),
        import(new URL("tokenizers.min.mjs", assets).href),
        fetch(new URL("tokenizer_config.json", assets)).then((r) => r.json()),
      ]);
      ort = runtime;
      ort.env.wasm.numThreads = 1; // no cross-origin isolation needed
      ort.env.wasm.wasmPaths = new URL("ort/", assets).href;
      ort.env.wasm.wasmBinary = wasm;
      session = await ort.InferenceSession.create(model, { executionProviders: ["wasm"] });
      const json = JSON.parse(new TextDecoder().decode(tokenizerJson));
      tokenizer = new library.Tokenizer(json, config);
    } catch (error) {
      stop.abort();
      session = null;
      root.dataset.state = "failed";
      progress.hidden = true;
      loadButton.disabled = false;
      loadButton.textContent = "Try again";
      status.textContent =
        `The download did not finish (${mb(received)} of ${mb(totalBytes)} MB arrived: ` +
        `${error.message}). Nothing was kept; check your connection and press Try again.`;
      return;
    }
    progress.hidden = true;
    loadButton.hidden = true;
    status.textContent = `The model is loaded: ${mb(totalBytes)} MB, running in your browser.`;
    root.dataset.state = "ready";
    for (const name of ["text", "other"]) form.elements[name].disabled = false;
    offBox.disabled = false;
    for (const b of root.querySelectorAll("[data-action='layer-off'], [data-action='all-on']"))
      b.disabled = false;
    exampleSelect.disabled = false;
    form.elements.text.value = shown.text;
    form.elements.other.value = shown.other;
    await update();
    performance.mark("heads-first-map");
  }

  function encode(text) {
    const encoded = tokenizer.encode(text);
    let { ids, tokens } = encoded;
    const truncated = ids.length > data.limit;
    if (truncated) {
      // as transformers' truncation=True: the first limit - 1 tokens, then [SEP]
      ids = [...ids.slice(0, data.limit - 1), ids[ids.length - 1]];
      tokens = [...tokens.slice(0, data.limit - 1), tokens[tokens.length - 1]];
    }
    return { ids, tokens, truncated };
  }

  async function forward(ids, heads) {
    const gate = new Float32Array(LAYERS * HEADS).fill(1);
    for (const h of heads) gate[h] = 0;
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
      gate: new ort.Tensor("float32", gate, [LAYERS, HEADS]),
    };
    const result = await session.run(feeds);
    return { weights: result.weights.data, embedding: result.sentence_embedding.data };
  }

  const allOn = new Map(); // text -> its embedding with every head on
  async function embeddingAllOn(ids) {
    const key = ids.join(",");
    if (!allOn.has(key)) {
      if (allOn.size > 20) allOn.clear();
      allOn.set(key, (await forward(ids, [])).embedding);
    }
    return allOn.get(key);
  }

  // --- one update: the reader's text through the model ---------------------------
  let pending = Promise.resolve();
  function update() {
    pending = pending.then(compute).catch((error) => {
      // said on the page and in the console; the next change runs again
      root.dataset.busy = "false";
      out("note").textContent = `Something went wrong: ${error.message}`;
      console.error(error);
    });
    return pending;
  }

  async function compute() {
    const text = form.elements.text.value;
    const other = form.elements.other.value;
    const heads = [...off].sort((a, b) => a - b);
    const started = performance.now();
    root.dataset.busy = "true";
    const main = encode(text);
    if (main.ids.length <= 2) {
      shown = null;
      out("note").textContent = "Type a sentence above: its maps appear here as you type.";
      render();
      finish(text, other, heads);
      return;
    }
    const { weights, embedding } = await forward(main.ids, heads);
    const forwardMs = performance.now() - started;
    const reference = heads.length ? await embeddingAllOn(main.ids) : embedding;
    const second = encode(other);
    const similarity = { with: null, without: null, self: dot(embedding, reference) };
    if (second.ids.length > 2) {
      const otherOn = await embeddingAllOn(second.ids);
      similarity.with = dot(reference, otherOn);
      const otherOff = heads.length ? (await forward(second.ids, heads)).embedding : otherOn;
      similarity.without = dot(embedding, otherOff);
    }
    shown = {
      text,
      other,
      ids: main.ids,
      tokens: main.tokens,
      T: main.ids.length,
      weights,
      embedding,
      reference,
      off: heads,
      similarity,
      truncated: main.truncated || second.truncated,
      live: true,
    };
    const notes = [];
    if (main.truncated) notes.push(`Your text is longer than ${data.limit} tokens: it was cut there.`);
    if (second.truncated)
      notes.push(`The second sentence is longer than ${data.limit} tokens: it was cut there.`);
    const unknown = main.tokens.filter((t) => t === UNK).length;
    if (unknown)
      notes.push(
        `${unknown === 1 ? "One piece" : `${unknown} pieces`} of your text ` +
          `${unknown === 1 ? "is" : "are"} not in the model's vocabulary: ` +
          `shown as ${UNK}, the token the model reads instead.`,
      );
    out("note").textContent = notes.join(" ");
    render();
    root.dataset.ms = (performance.now() - started).toFixed(1); // model and drawing
    root.dataset.forwardMs = forwardMs.toFixed(1); // the first forward pass alone
    finish(text, other, heads);
  }

  function finish(text, other, heads) {
    root.dataset.shown = JSON.stringify([text, other, heads]);
    root.dataset.busy = "false";
    root.dispatchEvent(new CustomEvent("heads-shown"));
  }

  // --- drawing -----------------------------------------------------------------------
  const colours = () => {
    const style = getComputedStyle(root);
    return {
      ink: style.getPropertyValue("--heads-live-ink").trim(),
      paper: style.getPropertyValue("--heads-live-paper").trim(),
      text: style.getPropertyValue("--md-default-fg-color").trim(),
      mark: style.getPropertyValue("--md-accent-fg-color").trim(),
    };
  };
  const rgb = (css) => {
    const probe = document.createElement("canvas").getContext("2d");
    probe.fillStyle = css;
    const hex = probe.fillStyle; // normalised to #rrggbb
    return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  };
  const mix = (paper, ink, w) => paper.map((p, i) => Math.round(p + (ink[i] - p) * w));

  function drawThumb(canvas, w, T, paper, ink) {
    if (canvas.width !== T) canvas.width = canvas.height = T;
    const ctx = canvas.getContext("2d");
    const image = ctx.createImageData(T, T);
    const px = image.data;
    for (let i = 0; i < T * T; i++) {
      const x = w[i] < 0 ? 0 : Math.min(w[i], 1);
      px[4 * i] = paper[0] + (ink[0] - paper[0]) * x;
      px[4 * i + 1] = paper[1] + (ink[1] - paper[1]) * x;
      px[4 * i + 2] = paper[2] + (ink[2] - paper[2]) * x;
      px[4 * i + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
  }

  // the 72 thumbnails: a button each, in rows of 12 (one row per layer); layer
  // and head are indices from 0, shown counting from 1 as on every page
  const thumbs = [];
  for (let layer = 0; layer < LAYERS; layer++) {
    const row = document.createElement("div");
    row.className = "heads-live__layer";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `layer ${layer + 1}`);
    const label = document.createElement("span");
    label.className = "heads-live__layer-name";
    label.textContent = `layer ${layer + 1}`;
    label.setAttribute("aria-hidden", "true");
    row.append(label);
    for (let head = 0; head < HEADS; head++) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "heads-live__thumb";
      button.dataset.layer = layer;
      button.dataset.head = head;
      button.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-label", `layer ${layer + 1} head ${head + 1}`);
      button.title = `layer ${layer + 1}, head ${head + 1}`;
      const canvas = document.createElement("canvas");
      canvas.setAttribute("aria-hidden", "true");
      button.append(canvas);
      const view = () => {
        hovered = [layer, head];
        renderDetail();
      };
      const leave = () => {
        hovered = null;
        renderDetail();
      };
      button.addEventListener("mouseenter", view);
      button.addEventListener("focus", view);
      button.addEventListener("mouseleave", leave);
      button.addEventListener("blur", leave);
      button.addEventListener("click", () => {
        const same = locked && locked[0] === layer && locked[1] === head;
        locked = same ? null : [layer, head];
        for (const t of thumbs) {
          t.button.setAttribute(
            "aria-pressed",
            String(!!locked && t.layer === locked[0] && t.head === locked[1]),
          );
        }
        renderDetail();
      });
      row.append(button);
      thumbs.push({ layer, head, button, canvas });
    }
    grid.append(row);
    await pause();
  }

  const chosen = () => hovered || locked || [0, 2];

  function render({ thumbnails = true } = {}) {
    root.dataset.empty = String(!shown);
    renderTokens();
    if (thumbnails) for (let layer = 0; layer < LAYERS; layer++) renderLayer(layer);
    renderDetail();
    renderConsequence();
  }

  // one layer's thumbnails
  function renderLayer(layer) {
    if (!shown) return;
    const { paper, ink } = colours();
    const p = rgb(paper);
    const k = rgb(ink);
    for (const t of thumbs.slice(layer * HEADS, (layer + 1) * HEADS)) {
      drawThumb(t.canvas, map(shown, t.layer, t.head), shown.T, p, k);
      t.button.classList.toggle("is-off", off.has(t.layer * HEADS + t.head));
    }
  }

  function renderTokens() {
    const line = out("tokens");
    line.replaceChildren();
    if (!shown) return;
    shown.tokens.forEach((token, i) => {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = `heads-live__token${token === UNK ? " is-unknown" : ""}`;
      chip.textContent = token;
      chip.dataset.index = i;
      const show = () => {
        rowShown = i;
        renderDetail();
      };
      chip.addEventListener("mouseenter", show);
      chip.addEventListener("focus", show);
      line.append(chip);
    });
  }

  const name = (token, i) => `${token} (${i})`;

  function renderDetail() {
    const [layer, head] = chosen();
    const isOff = off.has(layer * HEADS + head);
    out("head").textContent =
      `Layer ${layer + 1}, head ${head + 1}` +
      (locked ? " (locked: click its thumbnail again to unlock)" : "") +
      (isOff ? ", switched off" : "");
    offBox.checked = isOff;
    const layerButton = $("[data-action='layer-off']");
    layerButton.textContent = `Switch off all of layer ${layer + 1}`;
    if (!shown) {
      bigMap.getContext("2d").clearRect(0, 0, bigMap.width, bigMap.height);
      out("row").textContent = "";
      for (const cell of root.querySelectorAll("[data-role]")) cell.textContent = "–";
      return;
    }
    if (boxWidth) drawBig(layer, head); // (else the ResizeObserver below draws it)
    const fmt = (x) => (x === null ? "–" : x.toFixed(2));
    const mine = roles(shown, layer, head);
    const strongest = ROLES.map(() => [-1, 0, 0]);
    for (let l = 0; l < LAYERS; l++)
      for (let h = 0; h < HEADS; h++)
        roles(shown, l, h).forEach((x, r) => {
          if (x !== null && x > strongest[r][0]) strongest[r] = [x, l, h];
        });
    ROLES.forEach((_, r) => {
      root.querySelector(`[data-role='${r}'][data-of='head']`).textContent = fmt(mine[r]);
      const [x, l, h] = strongest[r];
      root.querySelector(`[data-role='${r}'][data-of='best']`).textContent =
        x < 0 ? "–" : `${fmt(x)}, layer ${l + 1} head ${h + 1}`;
    });
    const i = rowShown !== null && rowShown < shown.T ? rowShown : null;
    if (i === null) {
      out("row").textContent = "Hover over or focus a token above to read its row here.";
    } else {
      const w = map(shown, layer, head).subarray(i * shown.T, (i + 1) * shown.T);
      const top = [...w.keys()].sort((a, b) => w[b] - w[a]).slice(0, 3);
      out("row").textContent =
        `${name(shown.tokens[i], i)} gives ` +
        top.map((j) => `${w[j].toFixed(2)} to ${name(shown.tokens[j], j)}`).join(", ") +
        (shown.T > 3 ? ", …" : "");
    }
    for (const chip of root.querySelectorAll(".heads-live__token")) {
      chip.classList.toggle("is-row", Number(chip.dataset.index) === i);
    }
    bigMap.setAttribute(
      "aria-label",
      `Attention map of layer ${layer + 1} head ${head + 1}: each row is a token, ` +
        `each column the token it attends to, darker for more weight.`,
    );
  }

  function drawBig(layer, head) {
    const { paper, ink, text, mark } = colours();
    const p = rgb(paper);
    const k = rgb(ink);
    const T = shown.T;
    const width = Math.min(Math.max(boxWidth, 200), 640);
    const ratio = window.devicePixelRatio || 1;
    const font = T > 32 ? 9 : 12;
    const ctx = bigMap.getContext("2d");
    ctx.font = `${font}px sans-serif`;
    const label = Math.min(Math.max(...shown.tokens.map((t) => ctx.measureText(t).width)) + 6, width * 0.3);
    const cell = Math.min(Math.max(Math.floor((width - label) / T), 4), 30);
    const size = label + cell * T;
    layout = { label, cell };
    bigMap.width = size * ratio;
    bigMap.height = size * ratio;
    bigMap.style.width = `${size}px`;
    bigMap.style.height = `${size}px`;
    ctx.scale(ratio, ratio);
    ctx.font = `${font}px sans-serif`;
    const w = map(shown, layer, head);
    for (let i = 0; i < T; i++)
      for (let j = 0; j < T; j++) {
        const [r, g, b] = mix(p, k, Math.min(Math.max(w[i * T + j], 0), 1));
        ctx.fillStyle = `rgb(${r},${g},${b})`;
        ctx.fillRect(label + j * cell, label + i * cell, cell, cell);
      }
    ctx.fillStyle = text;
    ctx.textBaseline = "middle";
    const show = cell >= font - 2 || T <= 24;
    shown.tokens.forEach((t, i) => {
      if (!show && i % 2) return;
      ctx.textAlign = "right";
      ctx.fillText(t, label - 3, label + (i + 0.5) * cell, label - 4);
      ctx.save();
      ctx.translate(label + (i + 0.5) * cell, label - 3);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "left";
      ctx.fillText(t, 0, 0, label - 4);
      ctx.restore();
    });
    if (rowShown !== null && rowShown < T) {
      ctx.strokeStyle = mark;
      ctx.lineWidth = 2;
      ctx.strokeRect(label, label + rowShown * cell, cell * T, cell);
    }
  }

  function renderConsequence() {
    const line = out("consequence");
    const n = off.size;
    if (!shown) {
      line.textContent = "";
      return;
    }
    const s = shown.similarity;
    const f = (x) => x.toFixed(4);
    if (!shown.live) {
      line.textContent =
        `With every head on, the two sentences' embeddings have cosine similarity ` +
        `${f(s.with)} (computed by PyTorch when the site was built). Load the model ` +
        `to type your own and to switch heads off.`;
      return;
    }
    const parts = [];
    parts.push(
      n === 0
        ? "Every head is on."
        : `${n} ${n === 1 ? "head is" : "heads are"} off: the sentence's embedding has ` +
            `cosine similarity ${f(s.self)} with its embedding with every head on.`,
    );
    if (s.with !== null)
      parts.push(
        n === 0
          ? `Your two sentences: cosine similarity ${f(s.with)}.`
          : `Your two sentences: cosine similarity ${f(s.with)} with every head on, ` +
              `${f(s.without)} with ${n === 1 ? "that head" : "those heads"} off.`,
      );
    else parts.push("Type a second sentence to compare the two.");
    line.textContent = parts.join(" ");
    out("similarity-self").textContent = n ? f(s.self) : "1.0000";
    out("similarity-with").textContent = s.with === null ? "–" : f(s.with);
    out("similarity-without").textContent = s.without === null || !n ? "–" : f(s.without);
  }

  // --- the controls --------------------------------------------------------------------
  let timer = null;
  const later = () => {
    clearTimeout(timer);
    root.dataset.busy = "true";
    timer = setTimeout(update, DEBOUNCE_MS);
  };
  form.addEventListener("submit", (event) => event.preventDefault());
  form.elements.text.addEventListener("input", later);
  form.elements.other.addEventListener("input", later);
  exampleSelect.addEventListener("change", () => {
    const example = data.examples[Number(exampleSelect.value)];
    if (session) {
      form.elements.text.value = example.text;
      form.elements.other.value = example.other;
      update();
    } else {
      showExample(example);
    }
  });
  offBox.addEventListener("change", () => {
    const [layer, head] = chosen();
    const h = layer * HEADS + head;
    if (offBox.checked) off.add(h);
    else off.delete(h);
    update();
  });
  $("[data-action='layer-off']").addEventListener("click", () => {
    const [layer] = chosen();
    for (let h = 0; h < HEADS; h++) off.add(layer * HEADS + h);
    update();
  });
  $("[data-action='all-on']").addEventListener("click", () => {
    off.clear();
    update();
  });
  loadButton.addEventListener("click", load);
  bigMap.addEventListener("mousemove", (event) => {
    if (!shown || !layout) return;
    const y = event.clientY - bigMap.getBoundingClientRect().top;
    const i = Math.floor((y - layout.label) / layout.cell);
    if (i >= 0 && i < shown.T && i !== rowShown) {
      rowShown = i;
      renderDetail();
    }
  });
  new MutationObserver(render).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-md-color-scheme"],
  });
  // The large map's box's width, as the last layout left it: the map is drawn to
  // fit it when it changes, and drawn first when it is known (reading it at once,
  // after the writes that come before, would make the browser lay out the page
  // then and there).
  new ResizeObserver(() => {
    const now = bigMap.parentElement.clientWidth;
    if (now !== boxWidth) {
      boxWidth = now;
      if (ready) renderDetail();
    }
  }).observe(bigMap.parentElement);

  // What the page shows, for the browser test (and a curious reader's console).
  Object.defineProperty(root, "heads", {
    get: () =>
      shown && {
        text: shown.text,
        tokens: shown.tokens,
        ids: shown.ids,
        T: shown.T,
        weights: shown.weights, // (6, 12, T, T), flat
        embedding: shown.embedding,
        off: shown.off,
        similarity: shown.similarity,
        roles: Array.from({ length: LAYERS * HEADS }, (_, i) =>
          roles(shown, Math.floor(i / HEADS), i % HEADS),
        ),
      },
  });

  function showExample(example) {
    shown = fromExample(example);
    form.elements.text.value = example.text;
    form.elements.other.value = example.other;
    render();
  }

  // the first example (showExample's), its thumbnails a layer at a time
  shown = fromExample(data.examples[0]);
  form.elements.text.value = shown.text;
  form.elements.other.value = shown.other;
  for (let layer = 0; layer < LAYERS; layer++) {
    await pause();
    renderLayer(layer);
  }
  await pause();
  root.dataset.empty = "false";
  renderTokens();
  renderConsequence();
  await pause();
  ready = true; // the large map is drawn from now on, when its box is laid out
  renderDetail();
  root.dataset.state = "examples";
  root.dataset.ready = "true";
}
