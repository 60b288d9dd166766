import torch
from transformers import AutoModel

from snippets.real_model.ex02_load import config, model, tokenizer
from snippets.real_model.ex03_attend import sentences


# isort: split
# --8<-- [start:page]
def js_divergence(p, q):
    """Jensen-Shannon divergence of distributions on the last axis, in bits.

    0 when p and q are equal, 1 when they share no token.
    """
    m = (p + q) / 2

    def kl(a, b):  # sum of a * log2(a / b), with 0 * log 0 = 0
        return torch.where(a > 0, a * (a / b).log2(), 0.0).sum(-1)

    return (kl(p, m) + kl(q, m)) / 2


torch.manual_seed(0)
untrained = AutoModel.from_config(config, attn_implementation="eager").eval()


def divergence_within_layers(net, sentence):
    """Mean JS divergence over all pairs of heads of each layer: (layers,)."""
    batch = tokenizer(sentence, return_tensors="pt")
    with torch.no_grad():
        w = torch.stack(net(**batch, output_attentions=True).attentions)[:, 0]
    pairs = js_divergence(w[:, :, None], w[:, None, :]).mean(-1)  # (L, H, H)
    a, b = torch.triu_indices(w.shape[1], w.shape[1], offset=1)
    return pairs[:, a, b].mean(-1)  # the 66 pairs of distinct heads


trained = torch.stack([divergence_within_layers(model, s) for s in sentences])
random_init = torch.stack(
    [divergence_within_layers(untrained, s) for s in sentences]
)
print(
    "layer  trained  random init   (mean JS divergence between heads, bits)"
)
for layer, (t, r) in enumerate(
    zip(trained.mean(0), random_init.mean(0), strict=True), start=1
):
    print(f"{layer:5d}  {t:7.3f}  {r:11.4f}")
# --8<-- [end:page]
