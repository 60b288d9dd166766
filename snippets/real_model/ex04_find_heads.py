import torch

from snippets.real_model.ex03_attend import attentions, sentences


# --8<-- [start:page]
def pattern_scores(weights):
    """Mean attention of every head on four targets, for one sentence.

    weights: (layers, heads, T, T), token 0 is [CLS] and token T - 1 is [SEP].
    Rows are the word tokens 1 .. T - 2; returns (4, layers, heads).
    """
    t = weights.shape[-1]
    rows = torch.arange(1, t - 1)  # the word tokens
    previous = weights[..., rows[1:], rows[1:] - 1].mean(-1)  # word before
    following = weights[..., rows[:-1], rows[:-1] + 1].mean(-1)  # word after
    on_cls = weights[..., rows, 0].mean(-1)  # the [CLS] token, first
    on_sep = weights[..., rows, t - 1].mean(-1)  # the [SEP] token, last
    return torch.stack([previous, following, on_cls, on_sep])


scores = torch.stack(
    [pattern_scores(attentions(s)[1]) for s in sentences]
).mean(0)  # (4 patterns, 6 layers, 12 heads), averaged over the sentences

patterns = ["previous token", "next token", "on [CLS]", "on [SEP]"]
best = {}
for name, per_head in zip(patterns, scores, strict=True):
    layer, head = divmod(per_head.argmax().item(), per_head.shape[1])
    best[name] = (layer, head)
    above = (per_head > 0.5).sum()  # heads giving it over half their weight
    # printed counting from 1: index 0 is layer 1, head 1
    print(f"{name:>14}: layer {layer + 1} head {head + 1:2d}, mean weight "
          f"{per_head[layer, head]:.2f}; {above:2d} of {per_head.numel()} "
          f"heads above 0.5")  # fmt: skip
print(f"median weight on [CLS] over all heads: {scores[2].median():.2f}")
# --8<-- [end:page]
