# Published configurations, from each model's config.json on the Hugging
# Face Hub (num_hidden_layers, num_attention_heads, num_key_value_heads,
# hidden_size); head dim = hidden / heads:
#   meta-llama/Llama-2-7b-hf    32 layers, 32 heads, 32 kv heads, hidden 4096
#   meta-llama/Meta-Llama-3-8B  32 layers, 32 heads,  8 kv heads, hidden 4096
#   tiiuae/falcon-7b            32 layers, 71 heads, multi_query, hidden 4544
MODELS = {  # name: (layers, query heads, key-value heads, head dim)
    "Llama-2-7B": (32, 32, 32, 128),
    "Llama-3-8B": (32, 32, 8, 128),
    "Falcon-7B": (32, 71, 1, 64),
}
BYTES_PER_NUMBER = 2  # float16 or bfloat16, as these models are served
CONTEXT = 32_768  # tokens held in the cache, batch of one
GiB = 2**30


def kv_cache_bytes_per_token(layers, kv_heads, head_dim):
    """One key and one value vector per key-value head, in every layer."""
    return 2 * layers * kv_heads * head_dim * BYTES_PER_NUMBER


print(f"model       kind  kv heads  bytes/token  GiB at {CONTEXT:,} tokens")
for name, (layers, heads, published, head_dim) in MODELS.items():
    kinds = {"MHA": heads, "GQA": heads // 4, "MQA": 1}  # GQA: groups of 4
    if heads % 4:  # 71 heads do not split into groups of 4
        del kinds["GQA"]
    for kind, kv_heads in kinds.items():
        per_token = kv_cache_bytes_per_token(layers, kv_heads, head_dim)
        total = per_token * CONTEXT / GiB
        star = "*" if kv_heads == published else " "
        print(
            f"{name:<10}  {kind}{star}  {kv_heads:>8}  {per_token:>11,}"
            f"  {total:>8.2f}"
        )
