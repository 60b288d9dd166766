"""What the explorer computes, in PyTorch: one text's tokens, every head's
attention weights and the sentence embedding, with some heads switched off."""

from snippets.real_model.ex02_load import config, model, tokenizer

# isort: split
# --8<-- [start:page]
import torch
import torch.nn.functional as F

LIMIT = 64  # tokens, [CLS] and [SEP] included: longer text is cut
head_dim = config.hidden_size // config.num_attention_heads  # 32


def switch_off(heads):
    """A forward pre-hook for a layer's output projection: the context of
    each head in `heads` is zeroed before the projection mixes them."""

    def hook(projection, args):
        (context,) = args  # (1, T, 12 * 32): the heads side by side
        context = context.clone()
        for h in heads:
            context[..., h * head_dim : (h + 1) * head_dim] = 0
        return (context,)

    return hook


def run(text, off=()):
    """Tokens, weights (6, 12, T, T) and embedding (384,) of `text`, with
    the heads in `off`, (layer, head) pairs, switched off."""
    batch = tokenizer(
        text, truncation=True, max_length=LIMIT, return_tensors="pt"
    )
    handles = [
        layer.attention.output.dense.register_forward_pre_hook(
            switch_off([h for at, h in off if at == n])
        )
        for n, layer in enumerate(model.encoder.layer)
    ]
    try:
        with torch.no_grad():
            out = model(**batch, output_attentions=True)
    finally:  # the model is whole again, even after an error
        for handle in handles:
            handle.remove()
    tokens = tokenizer.convert_ids_to_tokens(batch["input_ids"][0])
    weights = torch.stack(out.attentions)[:, 0]  # (6, 12, T, T)
    mean = out.last_hidden_state[0].mean(0)  # (384,): mean over the tokens
    return tokens, weights, F.normalize(mean, dim=0)  # length 1


text = "The cat slept on the warm windowsill all afternoon."
tokens, weights, embedding = run(text)
print(" ".join(tokens))
print(tuple(weights.shape), "= (layers, heads, tokens, tokens)")
_, _, without = run(text, off=[(0, 2)])  # indices: layer 1, head 3
print(f"layer 1 head 3 off: similarity {embedding @ without:.4f}")
# --8<-- [end:page]
