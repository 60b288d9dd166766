"""The hook on the real model zeroes exactly one head's 32 columns."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import (
    batch,
    head_dim,
    model,
    n_heads,
    torch,
)
from snippets.real_model.ex04_find_heads import scores

# --8<-- [start:page]
# The real-model page's heads: the top scorer on each of its patterns
# (rows 0 to 2 of its `scores`: previous token, next token, [CLS])
KNOWN = ["previous-token", "next-token", "[CLS] sink"]
known_heads = {
    name: divmod(scores[row].argmax().item(), n_heads)
    for row, name in enumerate(KNOWN)
}

layer, head = known_heads["previous-token"]
attention = model.encoder.layer[layer].attention
seen = []  # what the output projection receives, with and without the hook


def record(projection, args, output):
    seen.append(args[0])  # args as the pre-hooks left them


handle = attention.output.dense.register_forward_hook(record)
with torch.inference_mode():
    out = model(**batch, output_attentions=True, output_hidden_states=True)
    with heads_removed({attention.output.dense: [head]}, head_dim):
        model(**batch)
handle.remove()
with_head, without = seen  # (32 sentences, t, 384) each
changed = (with_head != without).any(dim=(0, 1)).nonzero().flatten().tolist()
print(f"layer {layer + 1} head {head + 1} removed: columns {changed[0]} to "
      f"{changed[-1]} changed ({len(changed)} of {with_head.shape[-1]}), "
      f"now zero: {bool(without[..., changed].eq(0).all())}")  # fmt: skip

# Those columns are that head's own output: its weights times its values.
columns = slice(head * head_dim, (head + 1) * head_dim)
with torch.inference_mode():
    values = attention.self.value(out.hidden_states[layer])[..., columns]
own = out.attentions[layer][:, head] @ values  # (32, t, t) @ (32, t, 32)
print("they are its weights times its values:",
      torch.allclose(own, with_head[..., columns], atol=1e-5))  # fmt: skip
# --8<-- [end:page]
