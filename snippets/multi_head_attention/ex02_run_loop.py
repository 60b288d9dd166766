import torch

from snippets.attention_inputs import inputs
from snippets.multi_head_attention.ex01_loop_of_heads import LoopOfHeads

# --8<-- [start:page]
torch.manual_seed(123)
loop = LoopOfHeads(3, num_heads=2, d_head=2)  # two heads of width 2
batch = inputs.unsqueeze(0)  # (1, 6, 3): a batch holding one sentence
out = loop(batch)  # (1, 6, 3): back to d_model
print(out.shape)
# --8<-- [end:page]
