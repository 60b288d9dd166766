from snippets.real_text.ex02_model import Config
from snippets.real_text.ex03_parameters import HEADS
from snippets.real_text.ex04_train import STEPS, train

# isort: split
# --8<-- [start:page]
SEEDS = range(5)


def sweep(heads=HEADS, seeds=SEEDS, steps=STEPS, **setting):
    """{h: [validation loss of each seed]}. Seed by seed, every h starts
    from the same weights and trains on the same batches."""
    return {h: [train(Config(h, **setting), seed, steps)[1] for seed in seeds]
            for h in heads}  # fmt: skip


tiny = sweep(heads=[1, 4], seeds=[0], steps=20)  # seconds, not minutes
for h, losses in tiny.items():
    print(f"h = {h:2}, 20 steps: validation loss",
          ", ".join(f"{loss:.3f}" for loss in losses))  # fmt: skip
# --8<-- [end:page]
