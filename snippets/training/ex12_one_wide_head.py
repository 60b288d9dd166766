from snippets.training.ex01_task import torch
from snippets.training.ex07_run_seeds import outcomes
from snippets.training.ex09_before_after import heatmaps, sample

first = outcomes[0]

# --8<-- [start:page]
with torch.no_grad():
    wide = first.one.after(sample)[1][0]  # (1 head, T, T)
fig = heatmaps({"one head of width 4, after": wide}, sample[0])
# --8<-- [end:page]
