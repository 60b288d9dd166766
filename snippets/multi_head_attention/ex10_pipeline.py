from snippets.multi_head_attention.ex06_gpt2_small import gpt2_attn, x
from snippets.second_head.ex10_pipeline import pipeline

# isort: split
# --8<-- [start:page]
# --8<-- [start:record]
import torch
from torch.overrides import TorchFunctionMode


class SeeSoftmax(TorchFunctionMode):
    """While on, keeps what a softmax is given and what it gives back."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        if func.__name__ == "softmax":
            self.scores, self.weights = args[0], result
        return result


def record(attn, x):
    """Run attn on x once; return what each step of the run made."""
    seen = {}

    def keep(name):  # a forward hook: keeps a layer's input and output
        def hook(layer, inputs, output):
            seen[name] = inputs[0], output

        return hook

    layers = ["W_q", "W_k", "W_v", "W_o"]
    hooks = [getattr(attn, n).register_forward_hook(keep(n)) for n in layers]
    with torch.no_grad(), SeeSoftmax() as softmax:
        attn(x)
    for hook in hooks:
        hook.remove()
    return {
        "x": seen["W_q"][0],  # (b, t, d_model)
        "Q": attn.split(seen["W_q"][1]),  # (b, h, t, d_head)
        "K": attn.split(seen["W_k"][1]),  # (b, h_kv, t, d_head)
        "V": attn.split(seen["W_v"][1]),  # (b, h_kv, t, d_head)
        "scores": softmax.scores,  # (b, h, t, t): scaled and masked
        "weights": softmax.weights,  # (b, h, t, t)
        "context": attn.split(seen["W_o"][0]),  # (b, h, t, d_head)
        "concatenated": seen["W_o"][0],  # (b, t, h * d_head)
        "W_o": attn.W_o.weight.T,  # (h * d_head, d_model), as in x @ W_o
        "out": seen["W_o"][1],  # (b, t, d_model)
    }


def steps_of(seen):
    """The pipeline's rows for a recorded run, labelled with its shapes."""
    h, h_kv = seen["Q"].shape[1], seen["K"].shape[1]
    group = h // h_kv  # query heads per key-value head: 1 without GQA
    every = [(0, h, "")]  # one tile across all the heads
    heads = [(c, 1, "") for c in range(h)]  # one tile per query head
    kv = [(g * group, group, "") for g in range(h_kv)]  # per kv head
    kv_axes = "(b, h, t, d_head)" if h_kv == h else "(b, h_kv, t, d_head)"
    rows = [  # what the step is, its axes, what it made, its tiles
        ("input x", "(b, t, d_model)", "x", every),
        ("queries x W_q, split", "(b, h, t, d_head)", "Q", heads),
        ("keys x W_k, split", kv_axes, "K", kv),
        ("values x W_v, split", kv_axes, "V", kv),
        ("scores Q Kᵀ / √d_head, masked", "(b, h, t, t)", "scores", heads),
        ("weights: softmax of each row", "(b, h, t, t)", "weights", heads),
        ("context: weights V", "(b, h, t, d_head)", "context", heads),
        ("concatenate the heads", "(b, t, h·d_head)", "concatenated",
         every),
        ("W_o", "(h·d_head, d_model)", "W_o", every),
        ("output", "(b, t, d_model)", "out", every),
    ]  # fmt: skip
    kinds = {"x": "tokens", "concatenated": "tokens", "out": "tokens",
             "W_o": "weight", "weights": "scores"}  # fmt: skip
    return [
        (f"{what}\n{axes} = {tuple(seen[key].shape)}", kinds.get(key, key),
         tiles)
        for what, axes, key, tiles in rows
    ]  # fmt: skip


# --8<-- [end:record]


seen = record(gpt2_attn, x)
b, t, d_model = seen["x"].shape
_, h, _, d_head = seen["Q"].shape
title = (f"GPT-2 small's size: b = {b}, t = {t}, d_model = {d_model}, "
         f"h = {h} heads of d_head = {d_head}")  # fmt: skip
fig = pipeline(title, steps_of(seen))
# --8<-- [end:page]
