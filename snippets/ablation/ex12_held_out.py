"""Half the heads removed, measured on sentences that did not pick them."""

from snippets.ablation.ex02_remove_heads import heads_removed
from snippets.ablation.ex05_sentences import embed, head_dim, tokenizer
from snippets.ablation.ex10_pruning import by_layer, greedy, heads, shuffled
from snippets.real_model.ex03_attend import sentences

# --8<-- [start:page]
other = tokenizer(sentences, padding=True, return_tensors="pt")  # 24
reference = embed(other)
half = len(heads) // 2


def similarity_on_other(order):
    with heads_removed(by_layer(order[:half]), head_dim):
        emb = embed(other)
    return (emb * reference).sum(dim=-1).mean().item()


held_out_greedy = similarity_on_other(greedy)
held_out_random = sum(map(similarity_on_other, shuffled)) / len(shuffled)
print(f"the real-model page's {len(sentences)} sentences, {half} heads "
      f"removed: least important first {held_out_greedy:.3f}, "
      f"random order {held_out_random:.3f}")  # fmt: skip
# --8<-- [end:page]
