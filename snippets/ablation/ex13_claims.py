"""The page's conclusions, asserted; and the models are whole again."""

from snippets.ablation.ex01_two_heads import models
from snippets.ablation.ex05_sentences import (
    embed,
    full,
    model,
    pairs_accuracy,
    projections,
)
from snippets.ablation.ex06_one_head_columns import known_heads
from snippets.ablation.ex07_single_heads import SMALL, change
from snippets.ablation.ex09_known_heads import early, sinks
from snippets.ablation.ex10_pruning import (
    REMOVED,
    greedy_curve,
    none_left,
    random_curve,
)
from snippets.ablation.ex12_held_out import (
    half,
    held_out_greedy,
    held_out_random,
)

# isort: split
# --8<-- [start:page]
import torch

MOST = 0.75  # "most heads": at least this share of them
LOST_BY_NO_ATTENTION = 0.2  # look-alike accuracy lost with no heads at all

at_half = list(REMOVED).index(half)
greedy_sim, greedy_acc = greedy_curve[at_half].tolist()
random_sim, random_acc = random_curve[at_half].tolist()
claims = {
    f"most single removals move the embeddings by less than {SMALL}":
        (change < SMALL).float().mean() >= MOST,
    "every head above that is in the last layer":
        (change[:-1] < SMALL).all(),
    "the previous-token, next-token and sink heads are all below it":
        all(change[head] < SMALL for head in known_heads.values()),
    "in layers 0-4, sink heads move the embeddings less than the others":
        early[sinks].mean() < early[~sinks].mean(),
    "half the heads removed least important first keep the embeddings "
    "closer than random order, on our sentences and on the others":
        greedy_sim > random_sim and held_out_greedy > held_out_random,
    "on the pairs task, that order is no better than random at half":
        greedy_acc <= random_acc,
    "with no head at all, paraphrases still beat unrelated sentences":
        pairs_accuracy(none_left, lookalikes=False)
        >= pairs_accuracy(full, lookalikes=False),
    "but look-alikes win far more often":
        pairs_accuracy(full) - pairs_accuracy(none_left)
        > LOST_BY_NO_ATTENTION,
}  # fmt: skip
broken = [claim for claim, holds in claims.items() if not holds]
assert not broken, broken


def hooks_left():
    """This page registers forward pre-hooks, and one forward hook on an
    output projection (transformers keeps forward hooks of its own on other
    modules): how many of those are still there."""
    every_module = [*model.modules()]
    every_module += [m for toy in models.values() for m in toy.modules()]
    left = sum(len(m._forward_pre_hooks) for m in every_module)
    return left + sum(len(p._forward_hooks) for p in projections)


# No hook may outlive its `with` block: the models are as they were.
assert hooks_left() == 0, f"{hooks_left()} hooks left on the models"
assert torch.equal(embed(), full), "the model's embeddings have changed"
print(f"all {len(claims)} claims hold; no hook is left, and the model gives "
      "the same embeddings as before any head was removed")  # fmt: skip
# --8<-- [end:page]
