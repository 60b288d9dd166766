from snippets.grouped_query_attention.ex04_gqa_module import (
    GroupedQueryAttention,
)

# --8<-- [start:page]
print("kv heads  parameters")
for kv_heads in [12, 4, 1]:  # multi-head, grouped-query, multi-query
    gqa = GroupedQueryAttention(768, num_heads=12, num_kv_heads=kv_heads)
    params = sum(p.numel() for p in gqa.parameters())
    print(f"{kv_heads:>8}  {params:>10,}")
# --8<-- [end:page]
