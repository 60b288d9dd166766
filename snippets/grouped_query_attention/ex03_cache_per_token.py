BYTES_PER_NUMBER = 2  # float16 or bfloat16, as large models are served


def kv_cache_bytes_per_token(layers, kv_heads, head_dim):
    """One key and one value vector per key-value head, in every layer."""
    return 2 * layers * kv_heads * head_dim * BYTES_PER_NUMBER


d_model, layers = 4096, 32  # the width and depth of Llama 2 7B
print("heads  d_head  cache bytes/token")
for h in [1, 8, 32, 128]:  # multi-head attention: h_kv = h
    d_head = d_model // h
    per_token = kv_cache_bytes_per_token(layers, h, d_head)
    print(f"{h:>5}  {d_head:>6}  {per_token:>17,}")
