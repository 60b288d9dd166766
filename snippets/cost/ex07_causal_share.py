from snippets.cost.bench_results import bench

# --8<-- [start:page]
T, d_model = bench["setup"]["tokens"], bench["setup"]["width"]  # 1024, 768
macs = 4 * T * d_model**2 + 2 * T**2 * d_model  # all the module's products
above = T * (T - 1) // 2  # scores above the diagonal, in each head's map
skipped = 2 * above * d_model  # Q K^T and weights @ V, summed over heads
print(f"above the diagonal: {skipped / macs:.0%} of the multiply-adds")
# --8<-- [end:page]
