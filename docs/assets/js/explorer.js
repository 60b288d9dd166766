// The explorer on docs/explorer.md: two attention heads over six tokens, recomputed
// in the browser on every change. Plain JavaScript, no library. The numbers it
// starts from (embeddings, projections) are embedded in the page at build time from
// the site's Python snippets (hooks/generated.py), and a browser test checks that
// what this file shows equals the PyTorch computation in
// snippets/explorer/ex01_two_heads.py.
(() => {
  "use strict";

  const root = document.getElementById("explorer");
  const source = document.getElementById("explorer-data");
  if (!root || !source) return;
  const data = JSON.parse(source.textContent);

  // --- arithmetic, on arrays of rows ---------------------------------------
  const matmul = (a, b) =>
    a.map((row) => b[0].map((_, j) => row.reduce((sum, x, k) => sum + x * b[k][j], 0)));
  const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));
  const softmax = (row) => {
    const top = Math.max(...row); // subtracting the maximum keeps exp() finite
    const exps = row.map((x) => Math.exp(x - top));
    const total = exps.reduce((s, x) => s + x, 0);
    return exps.map((x) => x / total);
  };

  // One head: weights (6 x 6) and context vectors (6 x d_v), as in head() in Python.
  function head(x, Wq, Wk, Wv) {
    const queries = matmul(x, Wq);
    const keys = matmul(x, Wk);
    const values = matmul(x, Wv);
    const dk = keys[0].length;
    const scores = matmul(queries, transpose(keys)).map((row) =>
      row.map((s) => s / Math.sqrt(dk)),
    );
    const weights = scores.map(softmax);
    return { weights, context: matmul(weights, values) };
  }

  // Head 2's query reads one coordinate times its scale; so does its key, with its own.
  function handSet(queryReads, keyReads, queryScale, keyScale) {
    const column = (reads, scale) => [0, 1, 2].map((i) => [i === reads - 1 ? scale : 0]);
    return [column(queryReads, queryScale), column(keyReads, keyScale), data.head2.W_v];
  }

  // The page's own head 2 says which coordinates it reads and with what scales.
  const readsOf = (W) => W.findIndex((row) => row[0] !== 0) + 1;
  const scaleOf = (W) => W[readsOf(W) - 1][0];
  const defaults = {
    token: "journey",
    query_reads: readsOf(data.head2.W_q),
    key_reads: readsOf(data.head2.W_k),
    query_scale: scaleOf(data.head2.W_q),
    key_scale: scaleOf(data.head2.W_k),
  };

  // --- the page --------------------------------------------------------------
  const form = root.querySelector("form");
  const tokenSelect = form.elements.token;
  data.tokens.forEach((token) => tokenSelect.add(new Option(token, token)));
  for (const [name, value] of Object.entries(defaults)) form.elements[name].value = value;

  const tbody = root.querySelector("tbody");
  const rows = data.tokens.map((token) => {
    const tr = tbody.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = token;
    tr.append(th);
    const cells = [1, 2].map((n) => {
      const td = tr.insertCell();
      td.dataset.head = n;
      td.innerHTML =
        '<span class="heads-explorer__track" aria-hidden="true">' +
        '<span class="heads-explorer__bar"></span></span>' +
        '<span class="heads-explorer__value"></span>';
      return td;
    });
    return cells;
  });

  const fmt = (x) => x.toFixed(4);
  const vector = (v) => `[${v.map(fmt).join(", ")}]`;
  const out = (name) => root.querySelector(`[data-out="${name}"]`);

  function update() {
    const f = form.elements;
    const same = f.same_as_head_1.checked;
    for (const name of ["query_reads", "key_reads", "query_scale", "key_scale"]) {
      f[name].disabled = same;
    }
    const number = (input) => {
      const x = Number.parseFloat(input.value);
      return Number.isFinite(x) ? x : 0;
    };
    const i = data.tokens.indexOf(f.token.value);
    const { W_q, W_k, W_v } = data.head1;
    const h1 = head(data.inputs, W_q, W_k, W_v);
    const h2 = same
      ? head(data.inputs, W_q, W_k, W_v)
      : head(data.inputs, ...handSet(Number(f.query_reads.value), Number(f.key_reads.value),
                                     number(f.query_scale), number(f.key_scale)));
    [h1, h2].forEach((h, n) => {
      h.weights[i].forEach((w, j) => {
        const cell = rows[j][n];
        cell.querySelector(".heads-explorer__value").textContent = fmt(w);
        cell.querySelector(".heads-explorer__bar").style.width = `${(w * 100).toFixed(1)}%`;
      });
    });
    const c1 = h1.context[i];
    const c2 = h2.context[i];
    out("context1").textContent = vector(c1);
    out("context2").textContent = vector(c2);
    out("concatenated").textContent = vector([...c1, ...c2]);
    const identical = c1.every((x, k) => x === c2[k]) &&
      h1.weights[i].every((x, k) => x === h2.weights[i][k]);
    out("verdict").textContent = identical
      ? "The two heads are identical: same weights, same context vector. The second head adds nothing."
      : "The two heads differ: each spends its own attention budget.";
    root.classList.toggle("heads-explorer--identical", identical);
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => event.preventDefault());
  update();
  root.dataset.ready = "true";
})();
