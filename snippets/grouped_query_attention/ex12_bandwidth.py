from snippets.grouped_query_attention.ex03_cache_per_token import (
    BYTES_PER_NUMBER,
    kv_cache_bytes_per_token,
)
from snippets.grouped_query_attention.ex11_what_if import GiB


# --8<-- [start:page]
def llama_weights(layers, d_model, heads, kv_heads, d_ff, vocab):
    """How many weights a Llama model holds (no biases, untied output)."""
    d_kv = kv_heads * (d_model // heads)  # width of the key, value maps
    attention = 2 * d_model**2 + 2 * d_model * d_kv  # W_q, W_o; W_k, W_v
    mlp = 3 * d_model * d_ff  # gate, up and down projections
    norms = 2 * d_model  # two RMSNorm weight vectors
    embeddings = 2 * vocab * d_model  # input table and output layer
    return embeddings + layers * (attention + mlp + norms) + d_model


# Llama 3.1 8B's config.json: intermediate_size 14336, vocab_size 128256
d_model, vocab = 4096, 128_256
n = llama_weights(32, d_model, 32, 8, d_ff=14_336, vocab=vocab)
# Every step multiplies the new token by every weight matrix; only the
# input embedding table is not read whole (one row per token).
weights_read = (n - vocab * d_model) * BYTES_PER_NUMBER
print(f"{n:,} weights; a step reads {n - vocab * d_model:,} of them,")
print(f"all but the input embedding table: {weights_read / GiB:.1f} GiB")
print("context  kind  cache read per token (GiB)  / weights read")
for context in [8_192, 131_072]:
    for kind, kv_heads in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
        read = kv_cache_bytes_per_token(32, kv_heads, 128) * context
        print(
            f"{context:>7,}  {kind}  {read / GiB:>26.2f}"
            f"  {read / weights_read:>14.2f}"
        )
# --8<-- [end:page]
