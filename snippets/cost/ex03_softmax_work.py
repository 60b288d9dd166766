import torch

from snippets.cost.ex01_parameters import d_model, heads_sweep
from snippets.cost.ex02_flops import T, formula, x
from snippets.multi_head_attention.ex04_module import MultiHeadAttention

# isort: split
# --8<-- [start:page]
from torch.overrides import TorchFunctionMode


class SoftmaxRecorder(TorchFunctionMode):
    """Notes the shape of every softmax output inside a `with` block."""

    def __init__(self):
        super().__init__()
        self.shapes = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func is torch.softmax:
            self.shapes.append(out.shape)
        return out


print("heads        exps  = h T^2  map (MiB)  matmul FLOPs per exp")
with torch.no_grad():
    for h in heads_sweep:
        mha = MultiHeadAttention(d_model, num_heads=h)
        with SoftmaxRecorder() as recorder:
            mha(x)
        (shape,) = recorder.shapes  # (b, h, t, t): one map per head
        exps = shape.numel()  # one exponential per score
        map_mib = 4 * exps / 2**20  # float32: 4 bytes per weight
        print(
            f"{h:>5}  {exps:>10,}  {exps == h * T**2}  {map_mib:>9.0f}"
            f"  {formula / exps:>20,.0f}"
        )
# --8<-- [end:page]
