// The trainer of docs/train-it.md: the toy of docs/training.md trained in float64
// in the reader's browser, in a Web Worker (train-it.js starts it when the reader
// asks). A port, line for line, of the page's Python twin (snippets/train_it/):
// Python's own random generator (the Mersenne Twister), the same initial weights
// and training sequences, the forward and backward pass by hand, Adam and the
// cosine schedule. tests/browser/test_train_it.py checks its losses at every step,
// and its final weights, against PyTorch's (float64, torch.autograd, torch.optim).
(() => {
  "use strict";

  // --- Python's random: the Mersenne Twister (MT19937), seeded as random.seed(n) --
  function mersenneTwister(seed) {
    const N = 624;
    const mt = new Uint32Array(N); // a store into it keeps the low 32 bits
    const next = (prev, factor) => Math.imul(prev ^ (prev >>> 30), factor);
    mt[0] = 19650218;
    for (let i = 1; i < N; i += 1) mt[i] = next(mt[i - 1], 1812433253) + i;
    // random.seed(n): |n| in 32-bit words, the least significant first
    const key = [];
    let rest = seed < 0n ? -seed : seed;
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    let i = 1;
    for (let k = 0, j = 0; k < Math.max(N, key.length); k += 1) {
      mt[i] = (mt[i] ^ next(mt[i - 1], 1664525)) + key[j] + j;
      i += 1;
      j = (j + 1) % key.length;
      if (i >= N) [mt[0], i] = [mt[N - 1], 1];
    }
    for (let k = 1; k < N; k += 1) {
      mt[i] = (mt[i] ^ next(mt[i - 1], 1566083941)) - i;
      i += 1;
      if (i >= N) [mt[0], i] = [mt[N - 1], 1];
    }
    mt[0] = 0x80000000;
    let index = N;
    function twist() {
      for (let k = 0; k < N; k += 1) {
        const y = (mt[k] & 0x80000000) | (mt[k + 1 < N ? k + 1 : 0] & 0x7fffffff);
        mt[k] = mt[k + 397 < N ? k + 397 : k + 397 - N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      index = 0;
    }
    function word() {
      // the next 32 random bits (as a signed 32-bit integer: >>> reads them unsigned)
      if (index >= N) twist();
      let y = mt[index];
      index += 1;
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      return y ^ (y >>> 18);
    }
    // random.random(): 53 random bits, as a float64 in [0, 1)
    return () => ((word() >>> 5) * 67108864 + (word() >>> 6)) / 9007199254740992;
  }

  // --- the task, the weights and the sequences (snippets/train_it/ex01_stream.py) --
  const T = 6; // positions per sequence
  const D_MODEL = 2 + T; // v, k and a one-hot place
  const WIDTH = 4; // heads * d_head, the same in every design of the training page
  // Every lookup a batch holds, whichever a model is trained on: the previous value
  // and the value at the largest key (the training page's two), then the value at
  // the smallest key and the value two back (how-many-heads' tasks of 3 and 4).
  const LOOKUPS = 4;
  // A model's weights in one Float64Array, in the order of its state_dict: each
  // linear map's weight (out, in), row by row, then its bias (out).
  function layout(shapes) {
    const at = {}; // where each weight starts
    let size = 0;
    for (const [name, out, inputs] of shapes) {
      at[`${name}.weight`] = size;
      at[`${name}.bias`] = size + out * inputs;
      size += out * inputs + out;
    }
    return { shapes, at, size };
  }
  // The training page's Attention at a width (heads side by side), with `outputs`
  // outputs: the first `outputs` lookups of a batch.
  function oneLayer(width, outputs) {
    const model = layout([
      ["W_query", width, D_MODEL],
      ["W_key", width, D_MODEL],
      ["W_value", width, D_MODEL],
      ["W_o", outputs, width],
    ]);
    const names = ["W_query", "W_key", "W_value", "W_o"];
    [model.QW, model.KW, model.VW, model.OW] = names.map((n) => model.at[`${n}.weight`]);
    [model.QB, model.KB, model.VB, model.OB] = names.map((n) => model.at[`${n}.bias`]);
    model.o = [model.OW, model.OB]; // W_o's weight and bias, as linear reads a map
    return { ...model, width, outputs };
  }
  const ONE_LAYER = oneLayer(WIDTH, 2); // the training page's
  const { at: AT, size: SIZE } = ONE_LAYER;

  function initialWeights(seed, model = ONE_LAYER) {
    // nn.Linear's default: weight and bias uniform in (-b, b), b = 1 / sqrt(inputs)
    const random = mersenneTwister(seed);
    const W = new Float64Array(model.size);
    for (const [name, out, inputs] of model.shapes) {
      const bound = 1 / Math.sqrt(inputs);
      const weight = model.at[`${name}.weight`];
      for (let i = 0; i < out * inputs; i += 1) W[weight + i] = (2 * random() - 1) * bound;
      const bias = model.at[`${name}.bias`];
      for (let i = 0; i < out; i += 1) W[bias + i] = (2 * random() - 1) * bound;
    }
    return W;
  }

  // n sequences: v (n, T) in (-1, 1), k (n, T) in (0, 1), and the targets y (n, T,
  // LOOKUPS): the value at the previous position, where k is largest, where it is
  // smallest, and two positions back. A batch is made once and drawn into again at
  // every step: nothing is allocated.
  function batchOf(n) {
    const f = (size) => new Float64Array(size);
    const places = () => new Int32Array(n);
    return { n, v: f(n * T), k: f(n * T), y: f(n * T * LOOKUPS), top: places(), bottom: places() };
  }

  function drawBatch(batch, random) {
    const { n, v, k, y, top, bottom } = batch;
    for (let i = 0; i < n * T; i += 1) v[i] = random() * 2 - 1;
    for (let i = 0; i < n * T; i += 1) k[i] = random();
    for (let s = 0; s < n; s += 1) {
      const o = s * T; // where sequence s starts
      top[s] = 0; // where its k is largest
      bottom[s] = 0; // and smallest
      for (let t = 1; t < T; t += 1) {
        if (k[o + t] > k[o + top[s]]) top[s] = t;
        if (k[o + t] < k[o + bottom[s]]) bottom[s] = t;
      }
      for (let t = 0; t < T; t += 1) {
        const i = (o + t) * LOOKUPS;
        y[i] = v[o + ((t + T - 1) % T)];
        y[i + 1] = v[o + top[s]];
        y[i + 2] = v[o + bottom[s]];
        y[i + 3] = v[o + ((t + T - 2) % T)];
      }
    }
    return batch;
  }

  const makeBatch = (n, random) => drawBatch(batchOf(n), random);

  // --- the model, forward and backward by hand (snippets/train_it/ex02_backward.py) -
  // One attention layer, the training page's, at the width and with the outputs of
  // its `model` (oneLayer); a design is its number of heads. What is not about this
  // model (the random numbers, Adam and the schedule, the claims, the worker) works
  // on any flat array of weights in state_dict order: the depth model below brings
  // its own layout, forward and backward.
  // One sequence at a time: its queries, keys and values (width, T), each head's
  // weights (h, T, T), the context (width, T) and the output (outputs, T), kept in
  // `work`, made once per run: nothing is allocated while training. The hot loops
  // read the weights at the model's offsets.
  //
  // For speed, a sequence's numbers are kept feature by feature (number c of
  // position t at c * T + t: a feature's T positions side by side), and the hot
  // loops are written for T = 6: a feature's six positions, or a row's six weights,
  // are six local variables (x0 .. x5, a0 .. a5) that the JIT keeps in registers,
  // rather than an array read again and again. Every sum still adds the same terms
  // in the same order, from the same start, as the plain loop over positions it
  // replaces (hence the "0 +" in front of some: such a loop starts its sum at 0),
  // so the results are the same to the last bit.
  function workspace(heads, model = ONE_LAYER) {
    const f = (n) => new Float64Array(n);
    const { width, outputs } = model;
    return {
      heads,
      model: null, // a depth model's, below
      one: model,
      width,
      outputs,
      dHead: width / heads,
      scale: Math.sqrt(width / heads), // each score is divided by sqrt(d_head)
      q: f(width * T),
      k: f(width * T),
      v: f(width * T),
      a: f(heads * T * T),
      context: f(width * T),
      out: f(outputs * T),
      gradOut: f(outputs * T),
      gradContext: f(width * T),
      gradA: f(T * T), // d loss / d one head's scores (T, T)
      gradQ: f(width * T),
      gradK: f(width * T),
      gradV: f(width * T),
    };
  }

  // q, k, v (width, T) of sequence s: z = x W^T + b, where x_t = [v_t, k_t, e_t] with
  // e_t one-hot, so the product reads columns 0 and 1 of W and the column of place t.
  function project(W, batch, s, work) {
    const { q, k, v, width } = work;
    const { QW, KW, VW, QB, KB, VB } = work.one;
    linearIn(W, QW, QB, batch, s, q, width);
    linearIn(W, KW, KB, batch, s, k, width);
    linearIn(W, VW, VB, batch, s, v, width);
  }

  // z (outputs, T) = x W^T + b of sequence s, x_t = [v_t, k_t, e_t] as in project, for
  // the map whose weight and bias start at w and b: one of project's three, and the
  // depth model's W_in.
  function linearIn(W, w, b, batch, s, z, outputs) {
    const { v, k } = batch;
    const i = s * T; // sequence s's six positions
    const v0 = v[i];
    const v1 = v[i + 1];
    const v2 = v[i + 2];
    const v3 = v[i + 3];
    const v4 = v[i + 4];
    const v5 = v[i + 5];
    const k0 = k[i];
    const k1 = k[i + 1];
    const k2 = k[i + 2];
    const k3 = k[i + 3];
    const k4 = k[i + 4];
    const k5 = k[i + 5];
    for (let c = 0, row = w, at = 0; c < outputs; c += 1, row += D_MODEL, at += T) {
      const wv = W[row]; // row c of W: v's weight, k's, then the places'
      const wk = W[row + 1];
      const bias = W[b + c];
      z[at] = v0 * wv + k0 * wk + W[row + 2] + bias;
      z[at + 1] = v1 * wv + k1 * wk + W[row + 3] + bias;
      z[at + 2] = v2 * wv + k2 * wk + W[row + 4] + bias;
      z[at + 3] = v3 * wv + k3 * wk + W[row + 5] + bias;
      z[at + 4] = v4 * wv + k4 * wk + W[row + 6] + bias;
      z[at + 5] = v5 * wv + k5 * wk + W[row + 7] + bias;
    }
  }

  // Head h's rows, one per position t: its weights a[row .. row + T) and its context.
  function attend(work, h) {
    const { dHead, scale, q, k, v, a, context } = work;
    const first = h * dHead * T; // head h's features: first, first + T, .. < end
    const end = first + dHead * T;
    for (let t = 0; t < T; t += 1) {
      const row = (h * T + t) * T; // head h's weights for position t
      // the scores q_t . k_u, one per position u, each summed over the head's features
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let s4 = 0;
      let s5 = 0;
      for (let c = first; c < end; c += T) {
        const x = q[c + t];
        s0 += x * k[c];
        s1 += x * k[c + 1];
        s2 += x * k[c + 2];
        s3 += x * k[c + 3];
        s4 += x * k[c + 4];
        s5 += x * k[c + 5];
      }
      s0 /= scale;
      s1 /= scale;
      s2 /= scale;
      s3 /= scale;
      s4 /= scale;
      s5 /= scale;
      // softmax, less the largest score so that exp stays finite (exp(0) is 1)
      let top = 0; // where the largest score is (the first, if several are)
      let largest = s0;
      if (s1 > largest) {
        top = 1;
        largest = s1;
      }
      if (s2 > largest) {
        top = 2;
        largest = s2;
      }
      if (s3 > largest) {
        top = 3;
        largest = s3;
      }
      if (s4 > largest) {
        top = 4;
        largest = s4;
      }
      if (s5 > largest) {
        top = 5;
        largest = s5;
      }
      const w0 = top === 0 ? 1 : Math.exp(s0 - largest);
      const w1 = top === 1 ? 1 : Math.exp(s1 - largest);
      const w2 = top === 2 ? 1 : Math.exp(s2 - largest);
      const w3 = top === 3 ? 1 : Math.exp(s3 - largest);
      const w4 = top === 4 ? 1 : Math.exp(s4 - largest);
      const w5 = top === 5 ? 1 : Math.exp(s5 - largest);
      const inverse = 1 / (0 + w0 + w1 + w2 + w3 + w4 + w5);
      const a0 = w0 * inverse;
      const a1 = w1 * inverse;
      const a2 = w2 * inverse;
      const a3 = w3 * inverse;
      const a4 = w4 * inverse;
      const a5 = w5 * inverse;
      a[row] = a0;
      a[row + 1] = a1;
      a[row + 2] = a2;
      a[row + 3] = a3;
      a[row + 4] = a4;
      a[row + 5] = a5;
      // the context: the values v_u weighted by the row, summed over u in turn
      for (let c = first; c < end; c += T) {
        context[c + t] =
          0 + a0 * v[c] + a1 * v[c + 1] + a2 * v[c + 2] + a3 * v[c + 3] + a4 * v[c + 4] + a5 * v[c + 5];
      }
    }
  }

  // The forward pass of sequence s: work.out (outputs, T), work.a (h, T, T).
  function forward(W, batch, s, work) {
    project(W, batch, s, work);
    for (let h = 0; h < work.heads; h += 1) attend(work, h);
    output(W, work);
  }

  // out = context W_o^T + b_o, for one sequence: (width, T) -> (outputs, T)
  function output(W, work) {
    linear(W, work.one.o, work.context, work.width, work.out, work.outputs);
  }

  // d loss / d W_o and b_o of one sequence, added to G, and d loss / d context.
  function outputBack(W, G, work) {
    work.gradContext.fill(0);
    linearBack(W, G, work.one.o, work.context, work.width, work.gradOut, work.outputs, work.gradContext);
  }

  // Head h's rows, backward: d loss / d its queries, keys and values, in gradQ, gradK
  // and gradV at head h's features. Row by row, d loss / d the row's scores (into
  // gradA) and q_t's; then feature by feature, each k_u's and v_u's, summed over the
  // rows t in turn.
  function attendBack(work, h) {
    const { dHead, scale, q, k, v, a, gradContext: g, gradA: dS, gradQ, gradK, gradV } = work;
    const first = h * dHead * T;
    const end = first + dHead * T;
    const rows = h * T * T; // head h's weights
    for (let t = 0; t < T; t += 1) {
      const row = rows + t * T;
      const a0 = a[row];
      const a1 = a[row + 1];
      const a2 = a[row + 2];
      const a3 = a[row + 3];
      const a4 = a[row + 4];
      const a5 = a[row + 5];
      // d loss / d a_u = g_t . v_u, each summed over the head's features
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      let d4 = 0;
      let d5 = 0;
      for (let c = first; c < end; c += T) {
        const x = g[c + t];
        d0 += x * v[c];
        d1 += x * v[c + 1];
        d2 += x * v[c + 2];
        d3 += x * v[c + 3];
        d4 += x * v[c + 4];
        d5 += x * v[c + 5];
      }
      // the softmax's backward: d loss / d score, from the a-weighted mean of the d_u
      const mean = 0 + a0 * d0 + a1 * d1 + a2 * d2 + a3 * d3 + a4 * d4 + a5 * d5;
      const at = t * T;
      const s0 = (a0 * (d0 - mean)) / scale;
      const s1 = (a1 * (d1 - mean)) / scale;
      const s2 = (a2 * (d2 - mean)) / scale;
      const s3 = (a3 * (d3 - mean)) / scale;
      const s4 = (a4 * (d4 - mean)) / scale;
      const s5 = (a5 * (d5 - mean)) / scale;
      dS[at] = s0;
      dS[at + 1] = s1;
      dS[at + 2] = s2;
      dS[at + 3] = s3;
      dS[at + 4] = s4;
      dS[at + 5] = s5;
      // d loss / d q_t, summed over the positions u in turn
      for (let c = first; c < end; c += T) {
        gradQ[c + t] =
          0 + s0 * k[c] + s1 * k[c + 1] + s2 * k[c + 2] + s3 * k[c + 3] + s4 * k[c + 4] + s5 * k[c + 5];
      }
    }
    // d loss / d k_u and v_u: down column u of dS and of a, over the rows t in turn
    for (let c = first; c < end; c += T) {
      const q0 = q[c];
      const q1 = q[c + 1];
      const q2 = q[c + 2];
      const q3 = q[c + 3];
      const q4 = q[c + 4];
      const q5 = q[c + 5];
      const g0 = g[c];
      const g1 = g[c + 1];
      const g2 = g[c + 2];
      const g3 = g[c + 3];
      const g4 = g[c + 4];
      const g5 = g[c + 5];
      for (let u = 0; u < T; u += 1) {
        const au = rows + u;
        gradK[c + u] =
          0 +
          dS[u] * q0 +
          dS[T + u] * q1 +
          dS[2 * T + u] * q2 +
          dS[3 * T + u] * q3 +
          dS[4 * T + u] * q4 +
          dS[5 * T + u] * q5;
        gradV[c + u] =
          0 +
          a[au] * g0 +
          a[au + T] * g1 +
          a[au + 2 * T] * g2 +
          a[au + 3 * T] * g3 +
          a[au + 4 * T] * g4 +
          a[au + 5 * T] * g5;
      }
    }
  }

  // d z / d W of sequence s's three projections, added to G, from gradQ, gradK and
  // gradV (width, T): x_t is one-hot past its first two numbers, as in project.
  function projectBack(G, batch, s, work) {
    const { gradQ, gradK, gradV, width } = work;
    const { QW, KW, VW, QB, KB, VB } = work.one;
    linearInBack(G, QW, QB, gradQ, width, batch, s);
    linearInBack(G, KW, KB, gradK, width, batch, s);
    linearInBack(G, VW, VB, gradV, width, batch, s);
  }

  // The backward pass of z = x W^T + b, x_t = [v_t, k_t, e_t] as in project: adds
  // d loss / d W (at w) and b (at b) to G, from gradZ (outputs, T) of sequence s.
  // One projection's part of projectBack, and the depth model's W_in. Each of G's
  // numbers gets its terms position by position, as a loop over t would add them.
  function linearInBack(G, w, b, gradZ, outputs, batch, s) {
    const { v, k } = batch;
    const i = s * T; // sequence s's six positions
    const v0 = v[i];
    const v1 = v[i + 1];
    const v2 = v[i + 2];
    const v3 = v[i + 3];
    const v4 = v[i + 4];
    const v5 = v[i + 5];
    const k0 = k[i];
    const k1 = k[i + 1];
    const k2 = k[i + 2];
    const k3 = k[i + 3];
    const k4 = k[i + 4];
    const k5 = k[i + 5];
    for (let c = 0, row = w, at = 0; c < outputs; c += 1, row += D_MODEL, at += T) {
      const g0 = gradZ[at];
      const g1 = gradZ[at + 1];
      const g2 = gradZ[at + 2];
      const g3 = gradZ[at + 3];
      const g4 = gradZ[at + 4];
      const g5 = gradZ[at + 5];
      G[row] = G[row] + g0 * v0 + g1 * v1 + g2 * v2 + g3 * v3 + g4 * v4 + g5 * v5;
      G[row + 1] = G[row + 1] + g0 * k0 + g1 * k1 + g2 * k2 + g3 * k3 + g4 * k4 + g5 * k5;
      G[row + 2] += g0; // the places: one term each
      G[row + 3] += g1;
      G[row + 4] += g2;
      G[row + 5] += g3;
      G[row + 6] += g4;
      G[row + 7] += g5;
      G[b + c] = G[b + c] + g0 + g1 + g2 + g3 + g4 + g5;
    }
  }

  // The backward pass of sequence s, after its forward pass: adds its part of the
  // gradients to G, from gradOut = d loss / d out (outputs, T).
  function backward(W, G, batch, s, work) {
    outputBack(W, G, work);
    for (let h = 0; h < work.heads; h += 1) attendBack(work, h);
    projectBack(G, batch, s, work);
  }

  // The mean squared error over a batch, and its gradients in G (overwritten);
  // `correct` counts the outputs within `tol` of their targets, on each lookup.
  function lossAndGrads(W, G, batch, work, tol = 0, correct = [0, 0]) {
    const { outputs, out, gradOut } = work;
    const count = batch.n * T * outputs;
    G.fill(0);
    let loss = 0;
    const depth = work.model; // a model of several layers, or one layer
    for (let s = 0; s < batch.n; s += 1) {
      if (depth) depthForward(W, depth, batch, s, work);
      else forward(W, batch, s, work);
      for (let t = 0, y = s * T * LOOKUPS; t < T; t += 1, y += LOOKUPS) {
        for (let o = 0; o < outputs; o += 1) {
          const error = out[o * T + t] - batch.y[y + o];
          loss += error * error;
          gradOut[o * T + t] = (2 * error) / count;
          if (Math.abs(error) < tol) correct[o] += 1;
        }
      }
      if (depth) depthBackward(W, G, depth, batch, s, work);
      else backward(W, G, batch, s, work);
    }
    // The key bias adds q . b to every score of a row, and a softmax ignores what
    // is added to a whole row: its gradient is zero (what the sum gives is
    // rounding noise, which Adam would divide by its EPS and follow).
    if (depth) for (const key of depth.keyBiases) G.fill(0, key, key + WIDTH);
    else G.fill(0, work.one.KB, work.one.KB + work.width);
    return loss / count;
  }

  // --- depth: one head per layer, on a residual stream ---------------------------------
  // width-and-depth's OneHeadPerLayer (snippets/width_and_depth/ex04_one_head_per_layer.py)
  // by hand, as its Python twin (experiments/train_it_depth.py) computes it:
  //   stream = x W_in^T + b_in                       (T, 8) -> (T, 16)
  //   each layer in turn: one head of width 4 reads the stream (as workspace(1) and
  //   attend), its W_o writes (T, 4) -> (T, 16), added to the stream
  //   out = stream W_out^T + b_out                   (T, 16) -> (T, 2)
  // (each kept feature by feature, (16, T) and so on, as above)
  const D_STREAM = 16; // numbers per position in the residual stream

  function depthModel(layers) {
    const shapes = [["W_in", D_STREAM, D_MODEL]];
    for (let i = 0; i < layers; i += 1) {
      for (const name of ["W_query", "W_key", "W_value"])
        shapes.push([`layers.${i}.${name}`, WIDTH, D_STREAM]);
      shapes.push([`layers.${i}.W_o`, D_STREAM, WIDTH]);
    }
    shapes.push(["W_out", 2, D_STREAM]);
    const model = { layers, ...layout(shapes) };
    const pair = (name) => [model.at[`${name}.weight`], model.at[`${name}.bias`]];
    model.in = pair("W_in");
    model.out = pair("W_out");
    model.perLayer = Array.from({ length: layers }, (_, i) => ({
      query: pair(`layers.${i}.W_query`),
      key: pair(`layers.${i}.W_key`),
      value: pair(`layers.${i}.W_value`),
      o: pair(`layers.${i}.W_o`),
    }));
    model.keyBiases = model.perLayer.map((layer) => layer.key[1]);
    return model;
  }

  // One sequence at a time: the stream before each layer and after the last
  // (layers + 1 of them, each (16, T)), each layer's head, what it writes, the
  // output (2, T), and the gradients.
  function depthWorkspace(model) {
    const f = (n) => new Float64Array(n);
    return {
      model,
      streams: Array.from({ length: model.layers + 1 }, () => f(D_STREAM * T)),
      heads: Array.from({ length: model.layers }, () => workspace(1)), // q, k, v (4, T)...
      write: f(D_STREAM * T),
      outputs: 2,
      out: f(2 * T),
      gradOut: f(2 * T),
      gradStream: f(D_STREAM * T),
    };
  }

  // y (outputs, T) = x (inputs, T) W^T + b, for the map whose weight and bias start
  // at [w, b]: an output's six positions at once (y0 .. y5), each summed over the
  // inputs in turn.
  function linear(W, [w, b], x, inputs, y, outputs) {
    for (let o = 0, at = 0; o < outputs; o += 1, at += T) {
      let y0 = 0;
      let y1 = 0;
      let y2 = 0;
      let y3 = 0;
      let y4 = 0;
      let y5 = 0;
      for (let i = 0, xi = 0; i < inputs; i += 1, xi += T) {
        const weight = W[w + o * inputs + i];
        y0 += x[xi] * weight;
        y1 += x[xi + 1] * weight;
        y2 += x[xi + 2] * weight;
        y3 += x[xi + 3] * weight;
        y4 += x[xi + 4] * weight;
        y5 += x[xi + 5] * weight;
      }
      const bias = W[b + o];
      y[at] = y0 + bias;
      y[at + 1] = y1 + bias;
      y[at + 2] = y2 + bias;
      y[at + 3] = y3 + bias;
      y[at + 4] = y4 + bias;
      y[at + 5] = y5 + bias;
    }
  }

  // linear's backward, from gradY (outputs, T): adds d loss / d W and b to G, and
  // d loss / d x to gradX (inputs, T). Input by input: its six positions' x and
  // gradX in registers (x0 .. x5, d0 .. d5), the latter summed over the outputs in
  // turn; each of G's numbers gets its terms position by position.
  function linearBack(W, G, [w, b], x, inputs, gradY, outputs, gradX) {
    for (let i = 0, at = 0; i < inputs; i += 1, at += T) {
      const x0 = x[at];
      const x1 = x[at + 1];
      const x2 = x[at + 2];
      const x3 = x[at + 3];
      const x4 = x[at + 4];
      const x5 = x[at + 5];
      let d0 = gradX[at];
      let d1 = gradX[at + 1];
      let d2 = gradX[at + 2];
      let d3 = gradX[at + 3];
      let d4 = gradX[at + 4];
      let d5 = gradX[at + 5];
      for (let o = 0, go = 0; o < outputs; o += 1, go += T) {
        const g0 = gradY[go];
        const g1 = gradY[go + 1];
        const g2 = gradY[go + 2];
        const g3 = gradY[go + 3];
        const g4 = gradY[go + 4];
        const g5 = gradY[go + 5];
        const j = w + o * inputs + i;
        G[j] = G[j] + g0 * x0 + g1 * x1 + g2 * x2 + g3 * x3 + g4 * x4 + g5 * x5;
        const weight = W[j];
        d0 += g0 * weight;
        d1 += g1 * weight;
        d2 += g2 * weight;
        d3 += g3 * weight;
        d4 += g4 * weight;
        d5 += g5 * weight;
      }
      gradX[at] = d0;
      gradX[at + 1] = d1;
      gradX[at + 2] = d2;
      gradX[at + 3] = d3;
      gradX[at + 4] = d4;
      gradX[at + 5] = d5;
    }
    for (let o = 0, go = 0; o < outputs; o += 1, go += T) {
      let sum = G[b + o]; // the bias's: its six positions' terms in turn
      for (let t = 0; t < T; t += 1) sum += gradY[go + t];
      G[b + o] = sum;
    }
  }

  // The forward pass of sequence s: work.out (2, T), each layer's head's a (T, T).
  // After training, `removed` may switch layers' heads off: each layer's write
  // zeroed ("zero") or set to its mean over the held-out positions ("mean", from
  // `mean`); with work.sums set, each layer's write is added up there.
  function depthForward(W, model, batch, s, work, removed = null, mean = null) {
    const { streams, heads, write } = work;
    linearIn(W, model.in[0], model.in[1], batch, s, streams[0], D_STREAM);
    for (let i = 0; i < model.layers; i += 1) {
      const [stream, head, layer, next] = [streams[i], heads[i], model.perLayer[i], streams[i + 1]];
      linear(W, layer.query, stream, D_STREAM, head.q, WIDTH); // (16, T) -> (4, T)
      linear(W, layer.key, stream, D_STREAM, head.k, WIDTH);
      linear(W, layer.value, stream, D_STREAM, head.v, WIDTH);
      attend(head, 0);
      linear(W, layer.o, head.context, WIDTH, write, D_STREAM); // (4, T) -> (16, T)
      if (removed && removed[i] !== "on") {
        for (let j = 0; j < D_STREAM * T; j += 1) {
          write[j] = removed[i] === "mean" ? mean[i][Math.floor(j / T)] : 0;
        }
      }
      if (work.sums) for (let j = 0; j < D_STREAM * T; j += 1) work.sums[i][Math.floor(j / T)] += write[j];
      for (let j = 0; j < D_STREAM * T; j += 1) next[j] = stream[j] + write[j];
    }
    linear(W, model.out, streams[model.layers], D_STREAM, work.out, 2);
  }

  // The backward pass of sequence s, after its forward pass: adds its part of the
  // gradients to G, from work.gradOut (2, T). gradStream is d loss / d the stream,
  // from the last layer's to the first: the residual hands it down as it is, and
  // each layer's head adds what goes through its q, k and v.
  function depthBackward(W, G, model, batch, s, work) {
    const { streams, heads, gradStream } = work;
    gradStream.fill(0);
    linearBack(W, G, model.out, streams[model.layers], D_STREAM, work.gradOut, 2, gradStream);
    for (let i = model.layers - 1; i >= 0; i -= 1) {
      const [stream, head, layer] = [streams[i], heads[i], model.perLayer[i]];
      head.gradContext.fill(0);
      linearBack(W, G, layer.o, head.context, WIDTH, gradStream, D_STREAM, head.gradContext);
      attendBack(head, 0);
      linearBack(W, G, layer.query, stream, D_STREAM, head.gradQ, WIDTH, gradStream);
      linearBack(W, G, layer.key, stream, D_STREAM, head.gradK, WIDTH, gradStream);
      linearBack(W, G, layer.value, stream, D_STREAM, head.gradV, WIDTH, gradStream);
    }
    linearInBack(G, model.in[0], model.in[1], gradStream, D_STREAM, batch, s); // W_in's
  }

  // A run of the depth model, as `run` makes one of the page's model.
  function depthRun(config, layers, seed) {
    const model = depthModel(layers);
    return { layers, ...training(config, model, seed), work: depthWorkspace(model) };
  }

  // --- Adam and the cosine schedule (snippets/train_it/ex03_train.py) ---------------
  const BETAS = [0.9, 0.999]; // torch.optim.Adam's defaults
  const EPS = 1e-8;

  // the cosine schedule: lr at step 0, falling to 0 at step `steps`
  const learningRate = (lr, steps, step) => (lr * (1 + Math.cos((Math.PI * step) / steps))) / 2;

  // One Adam step (step counts from 1), as torch.optim.Adam takes it, at the
  // schedule's rate from lr.
  function adam(config, lr, W, G, m, v, step) {
    const size = learningRate(lr, config.steps, step - 1) / (1 - BETAS[0] ** step);
    const root = Math.sqrt(1 - BETAS[1] ** step);
    for (let i = 0; i < W.length; i += 1) {
      m[i] += (G[i] - m[i]) * (1 - BETAS[0]); // mean of the gradients
      v[i] = v[i] * BETAS[1] + G[i] * G[i] * (1 - BETAS[1]); // of their squares
      W[i] -= (size * m[i]) / (Math.sqrt(v[i]) / root + EPS);
    }
  }

  // One design's training, a step at a time: its weights, Adam's state, the losses.
  // The training page's model (ONE_LAYER, at config.lr), or another width and number
  // of outputs (oneLayer) at its own rate.
  function run(config, heads, seed, model = ONE_LAYER, lr = config.lr) {
    return { heads, lr, ...training(config, model, seed), work: workspace(heads, model) };
  }

  // What every run holds: its weights from the seed (and a copy of the start), their
  // gradients, Adam's two averages, and a loss for each step.
  function training(config, model, seed) {
    const W = initialWeights(seed, model);
    const f = () => new Float64Array(model.size);
    return { start: W.slice(), W, G: f(), m: f(), v: f(), losses: new Float64Array(config.steps), step: 0 };
  }

  // How-many-heads' cell (k, h): k lookups at once against h heads side by side at
  // config.lookups.width, at the learning rate the staircase tuned for the cell.
  function lookupsRun(config, k, heads, seed) {
    const { width, rates } = config.lookups;
    return run(config, heads, seed, oneLayer(width, k), rates[`${k},${heads}`]);
  }

  // One step: the loss, and the share of this batch's outputs within tol of their
  // targets on each lookup (before the step), then Adam's step.
  function trainStep(config, r, batch) {
    const correct = new Array(r.work.outputs).fill(0);
    r.losses[r.step] = lossAndGrads(r.W, r.G, batch, r.work, config.tol, correct);
    r.accuracy = correct.map((c) => c / (batch.n * T));
    r.step += 1;
    adam(config, r.lr ?? config.lr, r.W, r.G, r.m, r.v, r.step);
  }

  // --- what the training page measures (snippets/training/ex05, ex06, ex13) ---------
  // On the held-out sequences: the share within `tol` of the target on each lookup
  // (as counts), the mean squared error, each head's mean weight on the previous
  // position and on the largest key, and, between every two heads, the Jensen-Shannon
  // divergence of their rows, in bits, averaged over every row.
  function measure(config, W, heads, test, removed = null, model = ONE_LAYER) {
    const work = workspace(heads, model);
    const places = model.outputs; // a place for each lookup: where its value is
    const correct = new Array(places).fill(0);
    let squares = 0;
    const looks = new Float64Array(heads * places);
    const pairs = [];
    for (let g = 0; g < heads; g += 1) for (let h = g + 1; h < heads; h += 1) pairs.push([g, h]);
    const divergence = new Float64Array(pairs.length);
    const mean = removed ? contextMean(W, heads, test, model) : null;
    for (let s = 0; s < test.n; s += 1) {
      forward(W, test, s, work);
      if (removed) withHeadsRemoved(W, work, removed, mean);
      squares = heldOutErrors(config, work, test, s, correct, squares);
      const a = work.a;
      for (let h = 0; h < heads; h += 1) {
        for (let t = 0; t < T; t += 1) {
          for (let j = 0; j < places; j += 1)
            looks[h * places + j] += a[(h * T + t) * T + place(j, test, s, t)];
        }
      }
      pairs.forEach(([g, h], n) => {
        for (let t = 0; t < T; t += 1) {
          divergence[n] += jsDivergence(a, (g * T + t) * T, (h * T + t) * T);
        }
      });
    }
    const rows = test.n * T;
    return {
      heads,
      correct,
      total: rows,
      mse: squares / (rows * places),
      looks: Array.from(looks, (x) => x / rows),
      divergence: Array.from(divergence, (x) => x / rows),
    };
  }

  // Where lookup j of position t in sequence s finds its value.
  function place(j, test, s, t) {
    if (j === 0) return (t + T - 1) % T; // the previous position
    if (j === 1) return test.top[s]; // the largest key
    if (j === 2) return test.bottom[s]; // the smallest key
    return (t + T - 2) % T; // two back
  }

  // `squares` plus sequence s's squared errors, one after the other, after a forward
  // pass into `work`; counts the outputs within config.tol of their targets into
  // `correct`, per lookup.
  function heldOutErrors(config, work, test, s, correct, squares) {
    const outputs = work.outputs;
    for (let t = 0; t < T; t += 1) {
      for (let o = 0; o < outputs; o += 1) {
        const error = work.out[o * T + t] - test.y[(s * T + t) * LOOKUPS + o];
        squares += error * error;
        if (Math.abs(error) < config.tol) correct[o] += 1;
      }
    }
    return squares;
  }

  // JS(p, q) in bits, for the rows of `a` that start at i and j (0 log 0 counts as 0).
  function jsDivergence(a, i, j) {
    let sum = 0;
    for (let u = 0; u < T; u += 1) {
      const p = a[i + u];
      const q = a[j + u];
      const m = (p + q) / 2;
      if (p > 0) sum += p * Math.log2(p / m);
      if (q > 0) sum += q * Math.log2(q / m);
    }
    return sum / 2;
  }

  // What width-and-depth measures of the depth model on the held-out sequences: the
  // share within `tol` of the target on each lookup (as counts), the mean squared
  // error, and each layer's head's mean weight on the previous position, on the
  // largest key and on the position just after it (where_layers_look). With
  // `removed`, some layers' heads switched off (see depthForward), the mean of each
  // layer's write taken over every held-out position with every head on.
  function depthMeasure(config, W, layers, test, removed = null) {
    const model = depthModel(layers);
    const work = depthWorkspace(model);
    let mean = null;
    if (removed) {
      work.sums = Array.from({ length: layers }, () => new Float64Array(D_STREAM));
      for (let s = 0; s < test.n; s += 1) depthForward(W, model, test, s, work);
      mean = work.sums.map((sum) => sum.map((x) => x / (test.n * T)));
      work.sums = null;
    }
    const correct = [0, 0];
    let squares = 0;
    const looks = new Float64Array(layers * 3);
    for (let s = 0; s < test.n; s += 1) {
      depthForward(W, model, test, s, work, removed, mean);
      squares = heldOutErrors(config, work, test, s, correct, squares);
      const after = (test.top[s] + 1) % T;
      for (let i = 0; i < layers; i += 1) {
        const { a } = work.heads[i];
        for (let t = 0; t < T; t += 1) {
          looks[i * 3] += a[t * T + ((t + T - 1) % T)];
          looks[i * 3 + 1] += a[t * T + test.top[s]];
          looks[i * 3 + 2] += a[t * T + after];
        }
      }
    }
    const rows = test.n * T;
    return {
      layers,
      heads: layers,
      correct,
      total: rows,
      mse: squares / (rows * 2),
      looks: Array.from(looks, (x) => x / rows),
    };
  }

  // --- switching heads off (the ablation page's heads_removed) ----------------------
  // The context each head hands to W_o, averaged over every held-out position.
  function contextMean(W, heads, test, model) {
    const work = workspace(heads, model);
    const width = model.width;
    const sum = new Float64Array(width);
    for (let s = 0; s < test.n; s += 1) {
      forward(W, test, s, work);
      for (let i = 0; i < width * T; i += 1) sum[Math.floor(i / T)] += work.context[i];
    }
    return sum.map((x) => x / (test.n * T));
  }

  // After a forward pass: the output again, with the context of each head that
  // `removed` names zeroed ("zero") or set to its mean ("mean").
  function withHeadsRemoved(W, work, removed, mean) {
    const { context, dHead } = work;
    removed.forEach((how, h) => {
      if (how === "on") return;
      for (let e = h * dHead; e < (h + 1) * dHead; e += 1) {
        for (let t = 0; t < T; t += 1) context[e * T + t] = how === "mean" ? mean[e] : 0;
      }
    });
    output(W, work);
  }

  // --- the training page's claims, for each design (snippets/train_it/ex05_claims.py)
  // The claims that one design's run breaks, from its measures after training and
  // before. h heads: the training page's claims about two heads, for every two of
  // them. One head: those about one head, its error against that of two heads of
  // width 2 (twoHeadsMse, if they were trained). `claims`: the training page's
  // thresholds (snippets/train_it/ex05_claims.py), from the page's data.
  function broken(claims, after, before, twoHeadsMse = null) {
    const accuracy = after.correct.map((c) => c / after.total);
    const found = [];
    if (after.heads === 1) {
      if ((accuracy[0] + accuracy[1]) / 2 > claims.one_head_max_accuracy) {
        found.push("too accurate");
      }
      if (twoHeadsMse !== null && after.mse / twoHeadsMse < claims.one_head_min_mse_ratio) {
        found.push("error not clearly larger");
      }
      return found;
    }
    if (Math.min(...accuracy) < claims.two_heads_min_accuracy) {
      found.push("not accurate on both lookups");
    }
    if (Math.max(...before.divergence) > claims.js_before_max) {
      found.push("heads do not start alike");
    }
    if (Math.max(...after.divergence) < claims.js_after_min) found.push("heads do not end apart");
    const best = [0, 1].map((place) => {
      // the best head for each place
      let head = 0;
      for (let h = 1; h < after.heads; h += 1) {
        if (after.looks[h * 2 + place] > after.looks[head * 2 + place]) head = h;
      }
      return head;
    });
    const weakest = Math.min(after.looks[best[0] * 2], after.looks[best[1] * 2 + 1]);
    if (weakest < claims.role_min_attention || best[0] === best[1]) {
      found.push("no separate head for each lookup");
    }
    return found;
  }

  // "k3h2" -> [3, 2]: a cell of how-many-heads (k lookups, h heads); else null.
  function lookupsCell(design) {
    const found = /^k([1-4])h([1-4])$/.exec(design);
    return found ? [Number(found[1]), Number(found[2])] : null;
  }

  // --- in a worker: the messages of train-it.js ------------------------------------
  function serve() {
    const trained = {}; // design -> its last run, for switching heads off
    let test = null; // the held-out sequences, made once
    function heldOut(config) {
      test ??= makeBatch(config.test_size, mersenneTwister(BigInt(config.test_seed)));
      return test;
    }

    // Each head's weights for the one held-out sequence the page draws: the first
    // whose largest key is at config.shown_top (as the training page's figure).
    function maps(config, r) {
      const test = heldOut(config);
      const s = test.top.indexOf(config.shown_top);
      if (r.layers) {
        // one head per layer: the layers' maps, one after the other
        const work = depthWorkspace(r.work.model);
        depthForward(r.W, r.work.model, test, s, work);
        return work.heads.flatMap((head) => Array.from(head.a));
      }
      const work = workspace(r.heads, r.work.one);
      forward(r.W, test, s, work);
      return Array.from(work.a);
    }

    // A design of the page: a number of heads in one layer (config.designs), a
    // number of layers of one head each (config.layers), or how-many-heads' cell of
    // k lookups and h heads ("k3h2": lookupsCell). At its own learning rate where
    // config.own has one (each design's best, with config.steps its best steps).
    function start(config, design, seed) {
      const cell = lookupsCell(design);
      if (cell) return lookupsRun(config, cell[0], cell[1], seed);
      const r = config.layers[design]
        ? depthRun(config, config.layers[design], seed)
        : run(config, config.designs[design][0], seed);
      if (config.own?.[design] !== undefined) r.lr = config.own[design];
      return r;
    }
    const judge = (config, r, W, removed = null) =>
      r.layers
        ? depthMeasure(config, W, r.layers, heldOut(config), removed)
        : measure(config, W, r.heads, heldOut(config), removed, r.work.one);

    // Train `designs` from one seed, side by side on the same sequences; a frame
    // every `every` steps (none if 0); at the end each design's losses, weights,
    // and measures on the held-out sequences, after training and before.
    function train(config, designs, seed, every, post) {
      const runs = designs.map((design) => start(config, design, seed));
      const data = mersenneTwister(seed);
      const frame = (step) =>
        post({
          kind: "frame",
          step,
          designs: runs.map((r) => ({
            losses: Array.from(r.losses.subarray(Math.max(0, step - every), step)),
            maps: maps(config, r),
            accuracy: r.accuracy,
          })),
        });
      if (every) frame(0);
      const batch = batchOf(config.batch); // drawn into at every step
      for (let step = 1; step <= config.steps; step += 1) {
        drawBatch(batch, data);
        for (const r of runs) trainStep(config, r, batch);
        if (every && step % every === 0) frame(step);
      }
      return designs.map((design, i) => {
        const r = runs[i];
        trained[design] = r;
        return {
          design,
          losses: Array.from(r.losses),
          weights: Array.from(r.W),
          after: judge(config, r, r.W),
          before: r.layers ? null : judge(config, r, r.start), // the claims read it; none of depth
        };
      });
    }

    // The claims each run breaks; the one wide head's error is judged against two
    // heads of width 2, when they were trained from the same seed. The training
    // page makes no claim about the depth designs (null).
    function verdicts(config, runs) {
      const two = runs.find((r) => r.design === "2x2");
      return runs.map((r) =>
        config.layers[r.design] || lookupsCell(r.design)
          ? null
          : broken(config.claims, r.after, r.before, two ? two.after.mse : null),
      );
    }

    self.onmessage = ({ data: message }) => {
      const { id, config } = message;
      const post = (reply) => self.postMessage({ id, ...reply });
      if (message.kind === "train") {
        const runs = train(config, message.designs, BigInt(message.seed), message.every, post);
        if (message.lean)
          runs.forEach((r) => {
            delete r.losses;
            delete r.weights;
          });
        post({ kind: "done", runs });
      } else if (message.kind === "verdicts") {
        post({ kind: "done", broken: verdicts(config, message.runs) });
      } else if (message.kind === "ablate") {
        const measured = judge(config, trained[message.design], trained[message.design].W, message.removed);
        post({ kind: "done", measured });
      }
    };
  }

  const api = {
    mersenneTwister,
    initialWeights,
    makeBatch,
    batchOf,
    drawBatch,
    lossAndGrads,
    adam,
    run,
    depthRun,
    depthModel,
    lookupsRun,
    lookupsCell,
    trainStep,
    measure,
    depthMeasure,
    broken,
    SIZE,
    AT,
  };
  if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) serve();
  else if (typeof module !== "undefined")
    module.exports = api; // Node: the benchmark
  else self.headsTrainer = api; // the page: train-it.js reads the claims from it
})();
