# Published configurations, read from each model's config.json on the Hugging Face
# Hub (num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size):
#   meta-llama/Llama-2-7b-hf   32 layers, 32 heads, 32 kv heads, hidden 4096
#   meta-llama/Meta-Llama-3-8B 32 layers, 32 heads,  8 kv heads, hidden 4096
#   tiiuae/falcon-7b           32 layers, 71 heads, multi_query,  hidden 4544
# head dim = hidden / heads: 128, 128 and 64.
MODELS = {
    "Llama-2-7B": {"layers": 32, "heads": 32, "kv_heads": 32, "head_dim": 128},
    "Llama-3-8B": {"layers": 32, "heads": 32, "kv_heads": 8, "head_dim": 128},
    "Falcon-7B": {"layers": 32, "heads": 71, "kv_heads": 1, "head_dim": 64},
}
BYTES_PER_NUMBER = 2  # float16 or bfloat16, as these models are served
CONTEXT = 32_768  # tokens held in the cache, batch of one
GiB = 2**30


def kv_cache_bytes_per_token(layers, kv_heads, head_dim):
    """One key and one value vector per key-value head, in every layer."""
    return 2 * layers * kv_heads * head_dim * BYTES_PER_NUMBER


print(f"model       kind  kv heads  bytes per token  GiB at {CONTEXT:,} tokens")
for name, config in MODELS.items():
    heads = config["heads"]
    kinds = {"MHA": heads, "GQA": heads // 4, "MQA": 1}  # GQA: groups of 4 queries
    if heads % 4:  # 71 heads do not split into groups of 4
        del kinds["GQA"]
    for kind, kv_heads in kinds.items():
        per_token = kv_cache_bytes_per_token(
            config["layers"], kv_heads, config["head_dim"]
        )
        published = "*" if kv_heads == config["kv_heads"] else " "
        print(
            f"{name:<10}  {kind}{published}  {kv_heads:>8}  {per_token:>15,}"
            f"  {per_token * CONTEXT / GiB:>8.2f}"
        )
