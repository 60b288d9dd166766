from snippets.cost.bench_results import bench

# --8<-- [start:page]
sweep = bench["sweep"]
base = sweep[0]  # the sweep starts at one head
print("heads  textbook ms  x 1 head  fused ms  x 1 head")
for row in sweep:
    textbook, fused = row["textbook_ms"], row["sdpa_ms"]
    slower = textbook / base["textbook_ms"]
    fused_slower = fused / base["sdpa_ms"]
    print(
        f"{row['heads']:>5}  {textbook:>11.0f}  {slower:>8.2f}"
        f"  {fused:>8.0f}  {fused_slower:>8.2f}"
    )
# --8<-- [end:page]
