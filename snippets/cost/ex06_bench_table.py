from snippets.cost.bench_results import bench

# --8<-- [start:page]
env, setup = bench["environment"], bench["setup"]
print(f"measured {env['date']} on {env['cpu']}, {env['threads']} threads")
print(f"torch {env['torch']}, Python {env['python']}")
print(
    f"batch {setup['batch']} x {setup['tokens']} tokens, "
    f"width {setup['width']}, "
    f"{setup['heads']} heads, causal, {setup['dtype']}, "
    f"median of {setup['timed_rounds']} rounds"
)
print()
forward = bench["forward_ms"]  # forward pass: milliseconds
fastest = min(forward.values())
print(f"{'forward pass':<41}  {'ms':>6}  {'x fastest':>9}")
for name, ms in forward.items():
    print(f"{name:<41}  {ms:>6.0f}  {ms / fastest:>9.2f}")
# --8<-- [end:page]
