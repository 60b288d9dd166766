from snippets.grouped_query_attention.ex03_cache_per_token import (
    kv_cache_bytes_per_token,
)
from snippets.grouped_query_attention.ex12_bandwidth import weights_read

# --8<-- [start:page]
context = 8_192  # tokens in each sequence's cache
for kind, kv_heads in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
    per_sequence = kv_cache_bytes_per_token(32, kv_heads, 128) * context
    batch = weights_read // per_sequence + 1  # smallest b: b caches > weights
    print(f"{kind}: caches outweigh the weights from {batch} sequences on")
# --8<-- [end:page]
