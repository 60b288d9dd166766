from snippets.grouped_query_attention.ex03_cache_per_token import (
    BYTES_PER_NUMBER,
    kv_cache_bytes_per_token,
)
from snippets.grouped_query_attention.ex11_what_if import GiB


# --8<-- [start:page]
def llama_weights(layers, d, heads, kv_heads, d_ff, vocab):
    """How many weights a Llama model holds (no biases, untied output)."""
    d_kv = kv_heads * (d // heads)  # width of the key and value projections
    attention = 2 * d * d + 2 * d * d_kv  # W_q and W_o; W_k and W_v
    mlp = 3 * d * d_ff  # gate, up and down projections
    norms = 2 * d  # two RMSNorm weight vectors
    return 2 * vocab * d + layers * (attention + mlp + norms) + d


# Llama 3.1 8B's config.json: intermediate_size 14336, vocab_size 128256
d, vocab = 4096, 128_256
n = llama_weights(32, d, 32, 8, d_ff=14_336, vocab=vocab)
# Every step multiplies the new token by every weight matrix; only the
# input embedding table is not read whole (one row per token).
weights_read = (n - vocab * d) * BYTES_PER_NUMBER
print(f"{n:,} weights, {weights_read / GiB:.1f} GiB read per token")
print("context  kind  cache read per token (GiB)  / weights read")
for context in [8_192, 131_072]:
    for kind, kv_heads in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
        read = kv_cache_bytes_per_token(32, kv_heads, 128) * context
        print(
            f"{context:>7,}  {kind}  {read / GiB:>26.2f}"
            f"  {read / weights_read:>14.2f}"
        )
# --8<-- [end:page]
