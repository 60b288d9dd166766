import torch

from snippets.attention_inputs import inputs
from snippets.try_it.ex01_equal_projections import attention_head

# isort: split
# --8<-- [start:page]
from torch.utils.flop_counter import FlopCounterMode


def count_flops(run):
    with FlopCounterMode(display=False) as counter:
        run()
    return counter.get_total_flops()  # matmuls only; multiply-add = 2 FLOPs


torch.manual_seed(0)
narrow = [[torch.rand(3, 2) for _ in range(3)] for _ in range(2)]  # 2 heads
wide = [torch.rand(3, 4) for _ in range(3)]  # 1 head x (q, k, v)

flops_two = count_flops(lambda: [attention_head(inputs, *h) for h in narrow])
flops_one = count_flops(lambda: attention_head(inputs, *wide))
print("matmul FLOPs, two heads of width 2:", flops_two)
print("matmul FLOPs, one head of width 4: ", flops_one)

tokens_count = inputs.shape[0]  # 6
print("softmax rows, two heads:", 2 * tokens_count)
print("softmax rows, one head: ", 1 * tokens_count)
# --8<-- [end:page]
