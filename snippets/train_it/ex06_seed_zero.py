"""The claims on PyTorch's two heads of width 2, seed 0."""

from snippets.train_it.ex01_stream import initial_weights
from snippets.train_it.ex04_pytorch import theirs
from snippets.train_it.ex05_claims import broken, measure

# isort: split
# --8<-- [start:page]
after = measure(theirs, n_heads=2)  # PyTorch's two heads, seed 0
before = measure(initial_weights(seed=0), n_heads=2)
print("accurate on each lookup:",
      [round(c / after["total"], 2) for c in after["correct"]])  # fmt: skip
print("claims broken:", broken(after, before))
# --8<-- [end:page]
