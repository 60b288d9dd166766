from snippets.training.ex01_task import T, torch
from snippets.training.ex07_run_seeds import outcomes

# --8<-- [start:page]
INPUTS = ["v", "k"] + [f"place {i}" for i in range(T)]  # a position's 2 + T
OUTPUTS = ["v[i-1]", "v[max k]"]
PLACES = ["previous", "max k"]  # the columns of o.looks


def ov_circuits(model):
    """Per head: its W_v W_o, (2 + T, 2), and what its value bias writes."""
    circuits = []
    for head in range(model.n_heads):
        cols = slice(head * model.d_head, (head + 1) * model.d_head)
        W_v = model.W_value.weight[cols].T  # (2 + T, d_head): its values
        b_v = model.W_value.bias[cols]  # (d_head,)
        W_o = model.W_o.weight[:, cols].T  # (d_head, 2): its rows of W_o
        circuits.append((W_v @ W_o, b_v @ W_o))  # (2 + T, 2), (2,)
    return circuits


def show(number):
    return f"{round(number, 2) + 0:.2f}"  # + 0: no "-0.00"


two = outcomes[0].two.after  # seed 0's two heads, trained
with torch.no_grad():
    circuits = ov_circuits(two)
for head, (ov, _) in enumerate(circuits):
    print(f"head {head + 1} writes  to {OUTPUTS[0]}  to {OUTPUTS[1]}")
    for name, (to_previous, to_top) in zip(INPUTS, ov.tolist(), strict=True):
        print(f"  from {name:<7} {show(to_previous):>9} {show(to_top):>12}")
# --8<-- [end:page]
