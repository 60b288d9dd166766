from snippets.grouped_query_attention.ex03_cache_per_token import (
    kv_cache_bytes_per_token,
)

# --8<-- [start:page]
# Published configurations: each model's config.json on the Hugging Face
# Hub (num_hidden_layers, num_attention_heads, num_key_value_heads,
# hidden_size / num_attention_heads, max_position_embeddings); Falcon 7B's
# context is the "sequence length" of its model card.
MODELS = {  # name: (layers, query heads, kv heads, head dim, context)
    "Llama-2-7B": (32, 32, 32, 128, 4_096),  # meta-llama/Llama-2-7b-hf
    "Llama-3-8B": (32, 32, 8, 128, 8_192),  # meta-llama/Meta-Llama-3-8B
    "Llama-3.1-8B": (32, 32, 8, 128, 131_072),  # meta-llama/Llama-3.1-8B
    "Falcon-7B": (32, 71, 1, 64, 2_048),  # tiiuae/falcon-7b
}
MiB = 2**20

print("model         heads  kv heads  context  bytes/token  MiB at context")
for name, (layers, heads, kv_heads, head_dim, context) in MODELS.items():
    per_token = kv_cache_bytes_per_token(layers, kv_heads, head_dim)
    full = per_token * context / MiB  # one sequence, filled to its context
    print(
        f"{name:<12}  {heads:>5}  {kv_heads:>8}  {context:>7,}"
        f"  {per_token:>11,}  {full:>14,.0f}"
    )
# --8<-- [end:page]
