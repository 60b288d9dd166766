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
  // One sequence at a time: its queries, keys and values (T, width), each head's
  // weights (h, T, T), the context (T, width) and the output (T, outputs), kept in
  // `work`, made once per run: nothing is allocated while training. The hot loops
  // read the weights at the model's offsets.
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
      q: f(T * width),
      k: f(T * width),
      v: f(T * width),
      a: f(heads * T * T),
      context: f(T * width),
      out: f(T * outputs),
      gradOut: f(T * outputs),
      gradContext: f(T * width),
      gradA: f(T),
      gradQ: f(T * width),
      gradK: f(T * width),
      gradV: f(T * width),
    };
  }

  // q, k, v (T, width) of sequence s: z = x W^T + b, where x_t = [v_t, k_t, e_t] with
  // e_t one-hot, so the product reads columns 0 and 1 of W and the column of place t.
  function project(W, batch, s, work) {
    const { q, k, v, width } = work;
    const { QW, KW, VW, QB, KB, VB } = work.one;
    for (let t = 0; t < T; t += 1) {
      const vt = batch.v[s * T + t];
      const kt = batch.k[s * T + t];
      for (let c = 0; c < width; c += 1) {
        const i = t * width + c;
        const row = c * D_MODEL; // row c of each W: v's weight, k's, then the places'
        q[i] = vt * W[QW + row] + kt * W[QW + row + 1] + W[QW + row + 2 + t] + W[QB + c];
        k[i] = vt * W[KW + row] + kt * W[KW + row + 1] + W[KW + row + 2 + t] + W[KB + c];
        v[i] = vt * W[VW + row] + kt * W[VW + row + 1] + W[VW + row + 2 + t] + W[VB + c];
      }
    }
  }

  // Head h's row for position t: its weights a[row .. row + T) and its context.
  function attendRow(work, h, t) {
    const { dHead, scale, q, k, v, a, context, width } = work;
    const row = (h * T + t) * T; // head h's weights for position t
    const off = h * dHead;
    const qt = t * width + off; // head h's columns: h * dHead .. + dHead - 1
    let top = 0; // where the largest score is
    let largest = 0;
    for (let u = 0; u < T; u += 1) {
      const ku = u * width + off;
      let score = 0;
      for (let e = 0; e < dHead; e += 1) score += q[qt + e] * k[ku + e];
      const scaled = score / scale;
      a[row + u] = scaled;
      if (u === 0 || scaled > largest) {
        top = u;
        largest = scaled;
      }
    }
    // softmax, less the largest score so that exp stays finite (exp(0) is 1)
    let total = 0;
    for (let u = 0; u < T; u += 1) {
      const w = u === top ? 1 : Math.exp(a[row + u] - largest);
      a[row + u] = w;
      total += w;
    }
    const inverse = 1 / total;
    for (let u = 0; u < T; u += 1) a[row + u] *= inverse;
    for (let e = 0; e < dHead; e += 1) {
      let sum = 0;
      for (let u = 0, at = off + e; u < T; u += 1, at += width) sum += a[row + u] * v[at];
      context[qt + e] = sum;
    }
  }

  // The forward pass of sequence s: work.out (T, outputs), work.a (h, T, T).
  function forward(W, batch, s, work) {
    project(W, batch, s, work);
    for (let h = 0; h < work.heads; h += 1) {
      for (let t = 0; t < T; t += 1) attendRow(work, h, t);
    }
    output(W, work);
  }

  // out = context W_o^T + b_o, for one sequence: (T, width) -> (T, outputs)
  function output(W, work) {
    const { context, out, width, outputs } = work;
    const { OW, OB } = work.one;
    for (let t = 0; t < T; t += 1) {
      for (let o = 0; o < outputs; o += 1) {
        let sum = 0;
        for (let c = 0; c < width; c += 1) sum += context[t * width + c] * W[OW + o * width + c];
        out[t * outputs + o] = sum + W[OB + o];
      }
    }
  }

  // d loss / d W_o and b_o of one sequence, added to G, and d loss / d context.
  function outputBack(W, G, work) {
    const { context, gradOut, gradContext, width, outputs } = work;
    const { OW, OB } = work.one;
    for (let t = 0; t < T; t += 1) {
      for (let c = 0; c < width; c += 1) {
        const x = context[t * width + c];
        let sum = 0;
        for (let o = 0; o < outputs; o += 1) {
          const g = gradOut[t * outputs + o];
          G[OW + o * width + c] += g * x;
          sum += g * W[OW + o * width + c];
        }
        gradContext[t * width + c] = sum;
      }
      for (let o = 0; o < outputs; o += 1) G[OB + o] += gradOut[t * outputs + o];
    }
  }

  // Head h's row for position t, backward: adds to gradQ, gradK and gradV.
  function attendRowBack(work, h, t) {
    const { dHead, scale, q, k, v, a, gradContext, gradA, gradQ, gradK, gradV, width } = work;
    const row = (h * T + t) * T;
    const off = h * dHead;
    const qt = t * width + off;
    let mean = 0; // the a-weighted mean of d loss / d a over the row
    for (let u = 0; u < T; u += 1) {
      const ku = u * width + off;
      const weight = a[row + u];
      let sum = 0;
      for (let e = 0; e < dHead; e += 1) {
        const g = gradContext[qt + e];
        sum += g * v[ku + e];
        gradV[ku + e] += weight * g;
      }
      gradA[u] = sum;
      mean += weight * sum;
    }
    // the softmax's backward: d loss / d score, in gradA
    for (let u = 0; u < T; u += 1) gradA[u] = (a[row + u] * (gradA[u] - mean)) / scale;
    for (let e = 0; e < dHead; e += 1) {
      const qe = q[qt + e];
      let sum = gradQ[qt + e]; // only this row adds to it: summed here, u by u
      for (let u = 0, at = off + e; u < T; u += 1, at += width) {
        sum += gradA[u] * k[at];
        gradK[at] += gradA[u] * qe;
      }
      gradQ[qt + e] = sum;
    }
  }

  // d z / d W of sequence s's three projections, added to G, from gradQ, gradK and
  // gradV (T, width): x_t is one-hot past its first two numbers, as in project.
  function projectBack(G, batch, s, work) {
    const { gradQ, gradK, gradV, width } = work;
    const { QW, KW, VW, QB, KB, VB } = work.one;
    linearInBack(G, QW, QB, gradQ, width, batch, s);
    linearInBack(G, KW, KB, gradK, width, batch, s);
    linearInBack(G, VW, VB, gradV, width, batch, s);
  }

  // The backward pass of z = x W^T + b, x_t = [v_t, k_t, e_t] as in project: adds
  // d loss / d W (at w) and b (at b) to G, from gradZ (T, outputs) of sequence s.
  // One projection's part of projectBack, and the depth model's W_in.
  function linearInBack(G, w, b, gradZ, outputs, batch, s) {
    for (let c = 0; c < outputs; c += 1) {
      const row = w + c * D_MODEL;
      for (let t = 0; t < T; t += 1) {
        const g = gradZ[t * outputs + c];
        G[row] += g * batch.v[s * T + t];
        G[row + 1] += g * batch.k[s * T + t];
        G[row + 2 + t] += g;
        G[b + c] += g;
      }
    }
  }

  // The backward pass of sequence s, after its forward pass: adds its part of the
  // gradients to G, from gradOut = d loss / d out (T, outputs).
  function backward(W, G, batch, s, work) {
    outputBack(W, G, work);
    work.gradQ.fill(0);
    work.gradK.fill(0);
    work.gradV.fill(0);
    for (let h = 0; h < work.heads; h += 1) {
      for (let t = 0; t < T; t += 1) attendRowBack(work, h, t);
    }
    projectBack(G, batch, s, work);
  }

  // The mean squared error over a batch, and its gradients in G (overwritten);
  // `correct` counts the outputs within `tol` of their targets, on each lookup.
  function lossAndGrads(W, G, batch, work, tol = 0, correct = [0, 0]) {
    const outputs = work.outputs;
    const count = batch.n * T * outputs;
    G.fill(0);
    let loss = 0;
    const depth = work.model; // a model of several layers, or one layer
    for (let s = 0; s < batch.n; s += 1) {
      if (depth) depthForward(W, depth, batch, s, work);
      else forward(W, batch, s, work);
      for (let t = 0; t < T; t += 1) {
        for (let o = 0; o < outputs; o += 1) {
          const i = t * outputs + o;
          const error = work.out[i] - batch.y[(s * T + t) * LOOKUPS + o];
          loss += error * error;
          work.gradOut[i] = (2 * error) / count;
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
  //   attendRow), its W_o writes (T, 4) -> (T, 16), added to the stream
  //   out = stream W_out^T + b_out                   (T, 16) -> (T, 2)
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
  // (layers + 1 of them, each (T, 16)), each layer's head, what it writes, the
  // output (T, 2), and the gradients.
  function depthWorkspace(model) {
    const f = (n) => new Float64Array(n);
    return {
      model,
      streams: Array.from({ length: model.layers + 1 }, () => f(T * D_STREAM)),
      heads: Array.from({ length: model.layers }, () => workspace(1)), // q, k, v, a (T, 4)...
      write: f(T * D_STREAM),
      outputs: 2,
      out: f(T * 2),
      gradOut: f(T * 2),
      gradStream: f(T * D_STREAM),
    };
  }

  // y (T, outputs) = x (T, inputs) W^T + b, for the map whose weight and bias start
  // at [w, b].
  function linear(W, [w, b], x, inputs, y, outputs) {
    for (let t = 0; t < T; t += 1) {
      for (let o = 0; o < outputs; o += 1) {
        let sum = 0;
        for (let i = 0; i < inputs; i += 1) sum += x[t * inputs + i] * W[w + o * inputs + i];
        y[t * outputs + o] = sum + W[b + o];
      }
    }
  }

  // linear's backward, from gradY (T, outputs): adds d loss / d W and b to G, and
  // d loss / d x to gradX (T, inputs).
  function linearBack(W, G, [w, b], x, inputs, gradY, outputs, gradX) {
    for (let t = 0; t < T; t += 1) {
      for (let o = 0; o < outputs; o += 1) {
        const g = gradY[t * outputs + o];
        for (let i = 0; i < inputs; i += 1) {
          G[w + o * inputs + i] += g * x[t * inputs + i];
          gradX[t * inputs + i] += g * W[w + o * inputs + i];
        }
        G[b + o] += g;
      }
    }
  }

  // The stream (T, 16) of sequence s: x W_in^T + b_in, x_t = [v_t, k_t, e_t] (as project).
  function streamIn(W, [w, b], batch, s, stream) {
    for (let t = 0; t < T; t += 1) {
      const vt = batch.v[s * T + t];
      const kt = batch.k[s * T + t];
      for (let o = 0; o < D_STREAM; o += 1) {
        const row = w + o * D_MODEL;
        stream[t * D_STREAM + o] = vt * W[row] + kt * W[row + 1] + W[row + 2 + t] + W[b + o];
      }
    }
  }

  // The forward pass of sequence s: work.out (T, 2), each layer's head's a (T, T).
  // After training, `removed` may switch layers' heads off: each layer's write
  // zeroed ("zero") or set to its mean over the held-out positions ("mean", from
  // `mean`); with work.sums set, each layer's write is added up there.
  function depthForward(W, model, batch, s, work, removed = null, mean = null) {
    const { streams, heads, write } = work;
    streamIn(W, model.in, batch, s, streams[0]);
    for (let i = 0; i < model.layers; i += 1) {
      const [stream, head, layer, next] = [streams[i], heads[i], model.perLayer[i], streams[i + 1]];
      linear(W, layer.query, stream, D_STREAM, head.q, WIDTH); // (T, 16) -> (T, 4)
      linear(W, layer.key, stream, D_STREAM, head.k, WIDTH);
      linear(W, layer.value, stream, D_STREAM, head.v, WIDTH);
      for (let t = 0; t < T; t += 1) attendRow(head, 0, t);
      linear(W, layer.o, head.context, WIDTH, write, D_STREAM); // (T, 4) -> (T, 16)
      if (removed && removed[i] !== "on") {
        for (let j = 0; j < T * D_STREAM; j += 1) {
          write[j] = removed[i] === "mean" ? mean[i][j % D_STREAM] : 0;
        }
      }
      if (work.sums) for (let j = 0; j < T * D_STREAM; j += 1) work.sums[i][j % D_STREAM] += write[j];
      for (let j = 0; j < T * D_STREAM; j += 1) next[j] = stream[j] + write[j];
    }
    linear(W, model.out, streams[model.layers], D_STREAM, work.out, 2);
  }

  // The backward pass of sequence s, after its forward pass: adds its part of the
  // gradients to G, from work.gradOut (T, 2). gradStream is d loss / d the stream,
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
      head.gradQ.fill(0);
      head.gradK.fill(0);
      head.gradV.fill(0);
      for (let t = 0; t < T; t += 1) attendRowBack(head, 0, t);
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
    for (let i = 0; i < T * outputs; i += 1) {
      const t = Math.floor(i / outputs);
      const o = i % outputs;
      const error = work.out[i] - test.y[(s * T + t) * LOOKUPS + o];
      squares += error * error;
      if (Math.abs(error) < config.tol) correct[o] += 1;
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
      for (let i = 0; i < T * width; i += 1) sum[i % width] += work.context[i];
    }
    return sum.map((x) => x / (test.n * T));
  }

  // After a forward pass: the output again, with the context of each head that
  // `removed` names zeroed ("zero") or set to its mean ("mean").
  function withHeadsRemoved(W, work, removed, mean) {
    const { context, width, dHead } = work;
    removed.forEach((how, h) => {
      if (how === "on") return;
      for (let t = 0; t < T; t += 1) {
        for (let e = h * dHead; e < (h + 1) * dHead; e += 1) {
          context[t * width + e] = how === "mean" ? mean[e] : 0;
        }
      }
    });
    output(W, work);
  }

  // --- the training page's claims, for each design (snippets/train_it/ex05_claims.py)
  // The claims that one design's run breaks, from its measures after training and
  // before. h heads: the training page's claims about two heads, for every two of
  // them. One head: those about one head, its error against that of two heads of
  // width 2 (twoHeadsMse, if they were trained). `claims`: the training page's
  // thresholds (snippets/training/ex13_claims.py), from the page's data.
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
    // k lookups and h heads ("k3h2": lookupsCell).
    function start(config, design, seed) {
      const cell = lookupsCell(design);
      if (cell) return lookupsRun(config, cell[0], cell[1], seed);
      if (config.layers[design]) return depthRun(config, config.layers[design], seed);
      return run(config, config.designs[design][0], seed);
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
