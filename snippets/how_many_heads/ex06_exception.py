"""The exception: three heads that learned four lookups, and how; and how
often trained heads beat the floor that rows fixed against the values set."""

import statistics

from snippets.how_many_heads.ex01_tasks import LOOKUPS, lookups_task
from snippets.how_many_heads.ex02_designs import HEADS, KS, design
from snippets.how_many_heads.ex03_one_average import rows_held
from snippets.how_many_heads.ex05_staircase import (
    ACCURATE,
    cells,
    worst_lookup,
)
from snippets.how_many_heads.staircase_results import staircase_results
from snippets.training.ex05_train import (
    accuracy,
    held_out,
    torch,
    train_model,
)

# isort: split
# --8<-- [start:floor]
inputs, targets = held_out(task=lookups_task(4))  # the held-out sequences
t, n, key = torch.arange(6), len(inputs), inputs[..., 1]
sources = torch.stack([
    ((t - 1) % 6).expand(n, 6), key.argmax(1, keepdim=True).expand(n, 6),
    key.argmin(1, keepdim=True).expand(n, 6), ((t - 2) % 6).expand(n, 6),
])  # (4, n, T): the position each lookup reads  # fmt: skip
# G[l, m]: the share of positions where lookups l and m read the same source
G = (sources[:, None] == sources[None]).double().mean(dim=(2, 3))  # (4, 4)


def floor(k, h):
    """The least expected test MSE of h heads on k lookups whose rows do not
    move with the values: (k - the sum of G's h largest eigenvalues) / (3k),
    for values uniform on (-1, 1), of variance 1/3."""
    largest = torch.linalg.eigvalsh(G[:k, :k]).flip(0)[:h]  # (h,)
    return (k - largest.sum().item()) / (3 * k)


print("k  h   floor  median test MSE  seeds below it  the closest, by")
for k in KS:
    for h in [h for h in HEADS if h < k]:
        mse = cells[k, h]["test mse"]
        margins = [floor(k, h) - m for m in mse if m < floor(k, h)]
        closest = f"{min(margins):.4f}" if margins else "-"
        print(f"{k}  {h}  {floor(k, h):6.3f}  {statistics.median(mse):15.3f}",
              f" {len(margins):2d} of {len(mse)}  {closest:>14}")  # fmt: skip
# --8<-- [end:floor]
# --8<-- [start:page]
seeds = range(*staircase_results["seeds"])[: len(worst_lookup(4, 3))]
learned_all = [
    s for s, a in zip(seeds, worst_lookup(4, 3), strict=True) if a >= ACCURATE
]
print("3 heads, 4 lookups, learned in seeds", learned_all)

task, seed = lookups_task(4), learned_all[0]
run = train_model(design(3, 4), seed, lr=cells[4, 3]["lr"], task=task)
blind = inputs.clone()
blind[..., 0] = 0  # the same sequences, every value 0
with torch.no_grad():
    out, rows = run.after(inputs)  # rows: (n, 3, T, T)
    rows_blind = run.after(blind)[1]  # rows computed without the values
    out_blind = rows_held(run.after, inputs, rows_blind)  # values as they are
    d_head = run.after.d_head
    place = run.after.W_value.weight[:d_head, 2:]  # head 1's (d_head, T)
    kept = place.clone()
    place[:] = place.mean(dim=1, keepdim=True)  # one place number for every t
    out_place = run.after(inputs)[0]  # head 1's values carry no place
    place[:] = kept

print(f"seed {seed} alone: accuracy with rows as trained; with rows",
      "computed without the values;\nwith head 1's place numbers set to",
      "their mean")  # fmt: skip
trained, without = accuracy(out, targets), accuracy(out_blind, targets)
for f, a, b, c in zip(LOOKUPS, trained, without, accuracy(out_place, targets),
                      strict=True):  # fmt: skip
    print(f"  {f.__name__:16} {a:.1f} (at least {ACCURATE}: {a >= ACCURATE})",
          f"  {b:.1f}  {c:.1f}")  # fmt: skip
print("each head's mean weight on each lookup's source, in that order:")
for head in range(3):
    on = [rows[:, head].gather(-1, s[..., None]).mean() for s in sources]
    print(f"  head {head + 1}:", "  ".join(f"{w:.1f}" for w in on))
v = inputs[..., 0]  # (n, T): the values
r = []  # at each position i: head 1's split against v[i-1] - v[i-2]
for i in range(6):
    split = (rows[:, 0, i, (i - 1) % 6] / rows[:, 0, i, (i - 2) % 6]).log()
    difference = v[:, (i - 1) % 6] - v[:, (i - 2) % 6]
    r.append(torch.corrcoef(torch.stack([split, difference]))[0, 1].item())
alternating = all(r[i - 1] * r[i] < 0 for i in range(6))  # r[-1]: the last
print("head 1's log(weight on i-1 / weight on i-2) against v[i-1] - v[i-2]:",
      f"|correlation| >= 0.9 at every i: {min(map(abs, r)) >= 0.9},",
      f"alternating in sign: {alternating}")  # fmt: skip
with torch.no_grad():  # pi: what place j's numbers give each output
    pi = run.after.W_o.weight[:, :d_head] @ place  # (4 outputs, T)
signs = ["".join("+" if p > 0 else "-" for p in pi[o]) for o in (0, 3)]
print("signs of head 1's place terms pi_j, place by place: previous value",
      signs[0], " two back", signs[1])  # fmt: skip
# --8<-- [end:page]
