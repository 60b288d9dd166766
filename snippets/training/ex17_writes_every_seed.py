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
own, heads, others = 0, 0, 0.0
for o in outcomes:
    parts = []  # one per head
    with torch.no_grad():
        circuits = ov_circuits(o.two.after)
    for head, (ov, _) in enumerate(circuits):
        place = o.looks[head].argmax().item()  # where it looks most
        into = ov[0].abs().argmax().item()  # the output that v goes into
        gain = show(ov[0, into].item())
        parts.append(f"{PLACES[place]:>16}  {OUTPUTS[into]:>8} {gain}")
        rest = ov.abs().flatten().tolist()
        rest.pop(into)  # every entry but that one (row v comes first)
        own, heads = own + (into == place), heads + 1
        others = max(others, *rest)
    print(f"seed {o.seed}:", " | ".join(parts))
print(f"{own} of {heads} heads write v into the output of their lookup")
print(f"largest other entry of any head's W_v W_o: {show(others)}")
# --8<-- [end:page]
