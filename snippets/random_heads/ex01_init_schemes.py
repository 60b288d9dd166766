# --8<-- [start:page]
import torch

d_in, d_head = 3, 2


def rand_init():  # all positive, U(0, 1): what the one-head page used
    return torch.rand(d_in, d_head)


def linear_init():  # nn.Linear's default: U(-1/sqrt(d_in), +1/sqrt(d_in))
    return torch.nn.Linear(d_in, d_head, bias=False).weight.T.detach()


def gpt2_init():  # GPT-2 style: N(0, 0.02)
    return torch.randn(d_in, d_head) * 0.02


inits = {
    "torch.rand": rand_init,
    "nn.Linear": linear_init,
    "N(0, 0.02)": gpt2_init,
}
# --8<-- [end:page]
