from snippets.grouped_query_attention.ex03_cache_per_token import (
    kv_cache_bytes_per_token,
)
from snippets.grouped_query_attention.ex10_real_models import MODELS

# --8<-- [start:page]
GiB = 2**30
layers, heads, published, head_dim, context = MODELS["Llama-3.1-8B"]
print(f"Llama 3.1 8B's shapes, one sequence of {context:,} tokens")
print("kind  kv heads  cache GiB")
for kind, kv_heads in [("MHA", heads), ("GQA", published), ("MQA", 1)]:
    cache = kv_cache_bytes_per_token(layers, kv_heads, head_dim) * context
    star = "*" if kv_heads == published else " "  # * the published one
    print(f"{kind}{star}  {kv_heads:>8}  {cache / GiB:>9.1f}")
# --8<-- [end:page]
