import torch

from snippets.second_head.ex04_concatenate import concatenated

# --8<-- [start:page]
# Row r of W_o: how much of input number r flows into each output.
W_o = torch.tensor(
    [
        [1.0, 0.0, 0.0],  # head 1, number 1 -> output 1
        [0.0, 1.0, 0.0],  # head 1, number 2 -> output 2
        [0.0, 0.0, 1.0],  # head 2, number 1 -> output 3
        [0.0, 0.0, 1.0],  # head 2, number 2 -> output 3 as well
    ]
)  # (4, 3): from two heads' worth of numbers back to the model width
out = concatenated @ W_o  # (6, 3): one vector per token, as wide as the input
print(out[1])
# --8<-- [end:page]
