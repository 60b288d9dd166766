from snippets.grouped_query_attention.ex06_kv_cache import (
    GiB,
    kv_cache_bytes_per_token,
)

# --8<-- [start:page]
budget = 16 * GiB  # memory set aside for the cache
for kind, kv_heads in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
    per_token = kv_cache_bytes_per_token(32, kv_heads, head_dim=128)
    print(f"{kind}: {budget // per_token:,} tokens")
# --8<-- [end:page]
