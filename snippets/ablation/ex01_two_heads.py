"""The training page's two-head models, one per seed."""

from snippets.training.ex05_train import train

# isort: split
# --8<-- [start:define]
SEEDS = range(5)


def two_heads(seed):
    """The training page's model with two heads of width 2, trained."""
    return train(n_heads=2, d_head=2, seed=seed).after


# --8<-- [end:define]


# Not on the page. The build (the figures) and the tests use the training
# page's saved runs (snippets/training/ex07_run_seeds.py, `saved`): the same
# seeds, the same code, so the same weights, without training again. The
# page's own blocks, run as a reader runs them, train.
def saved_two_heads(seed):
    from snippets.training.ex07_run_seeds import outcomes

    return next(o for o in outcomes if o.seed == seed).two.after


fresh_two_heads = two_heads
two_heads = saved_two_heads

# --8<-- [start:run]
models = {seed: two_heads(seed) for seed in SEEDS}  # trains 5 small models
print(f"{len(models)} models with two heads of width 2, seeds {list(SEEDS)}")
# --8<-- [end:run]
