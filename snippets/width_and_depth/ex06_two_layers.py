"""Two layers of one head each, trained: where each layer looks."""

from snippets.training.ex01_task import torch
from snippets.training.ex05_train import held_out, train_model
from snippets.training.ex07_run_seeds import saved_training
from snippets.width_and_depth.ex02_width_rates import start
from snippets.width_and_depth.ex04_one_head_per_layer import (
    OneHeadPerLayer,
    where_layers_look,
)

# Not on the page: run as a module (the tests, the figures), the training
# below is saved under .cache/training/ like the page's seeds; on the page,
# train_model is the training page's own, and trains.
train_model = saved_training(
    train_model, "snippets.width_and_depth.ex04_one_head_per_layer"
)

# --8<-- [start:page]
seed = start  # the first of the fresh seeds: 2000
deep = train_model(lambda: OneHeadPerLayer(n_layers=2), seed)
x, _ = held_out()
with torch.no_grad():
    looks = where_layers_look(deep.after(x)[1], x)  # (2 layers, 3 places)
previous, top = deep.test_accuracy.tolist()
print(f"seed {seed}, two layers, accuracy: previous value {previous:.2f},",
      f"value at the largest key {top:.2f}")  # fmt: skip
print("         previous  largest key  just after it")
for layer, (p, k, after) in enumerate(looks.tolist()):
    print(f"layer {layer + 1}: {p:8.2f} {k:12.2f} {after:14.2f}")
# --8<-- [end:page]
