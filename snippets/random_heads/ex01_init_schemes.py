# --8<-- [start:page]
import torch


# Each draws a (..., d_model, d_head) stack of projection matrices.
def rand_init(*shape):  # all positive, U(0, 1): what head 1 used
    return torch.rand(shape)


# nn.Linear's default: U(-1/sqrt(d_model), 1/sqrt(d_model))
def linear_init(*shape):
    bound = 1 / shape[-2] ** 0.5  # shape[-2] is d_model, the fan-in
    return torch.empty(shape).uniform_(-bound, bound)


def gpt2_init(*shape):  # GPT-2's: N(0, 0.02)
    return torch.randn(shape) * 0.02


inits = {
    "torch.rand": rand_init,
    "nn.Linear": linear_init,
    "N(0, 0.02)": gpt2_init,
}
# --8<-- [end:page]
