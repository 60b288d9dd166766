from snippets.training.ex01_task import torch
from snippets.training.ex07_run_seeds import outcomes
from snippets.training.ex15_what_heads_write import (
    OUTPUTS,
    PLACES,
    ov_circuits,
    show,
)

# --8<-- [start:page]
columns = "looks at  writes v into"
print(" " * 8 + f"head 1: {columns} | head 2: {columns}")
own, heads, from_k, spread = 0, 0, 0.0, 0.0
for o in outcomes:
    parts = []  # one per head
    with torch.no_grad():
        circuits = ov_circuits(o.two.after)
    for head, (ov, _) in enumerate(circuits):
        place = o.looks[head].argmax().item()  # where it looks most
        into = ov[0].abs().argmax().item()  # the output that v goes into
        gain = show(ov[0, into].item())
        parts.append(f"{PLACES[place]:>16}  {OUTPUTS[into]:>8} {gain}")
        own, heads = own + (into == place), heads + 1
        from_k = max(from_k, ov[1].abs().max().item())
        rows = ov[2:]  # (T, 2): what each place writes
        spread = max(spread, (rows.amax(0) - rows.amin(0)).max().item())
    print(f"seed {o.seed}:", " | ".join(parts))
print(f"{own} of {heads} heads write v into the output of their lookup")
print(f"largest entry from k, in any head: {show(from_k)}")
print(f"largest difference between the place rows of a head: {show(spread)}")
# --8<-- [end:page]
