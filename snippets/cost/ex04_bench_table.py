# --8<-- [start:page]
import json
from pathlib import Path

bench = json.loads(Path("docs/assets/data/bench.json").read_text())
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
fastest = min(row["median_ms"] for row in bench["forward"])
print(f"{'forward pass':<41}  {'ms':>6}  {'x fastest':>9}")
for row in bench["forward"]:
    ms = row["median_ms"]
    print(f"{row['name']:<41}  {ms:>6.0f}  {ms / fastest:>9.2f}")
# --8<-- [end:page]
