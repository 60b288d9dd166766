from snippets.one_head.ex03_weights import weights
from snippets.second_head.ex01_hand_set_head import w2


# --8<-- [start:page]
def js_divergence(p, q):  # per row, in bits: 0 = identical, 1 = disjoint
    m = (p + q) / 2
    kl_pm = (p * (p / m).log2()).sum(dim=-1)
    kl_qm = (q * (q / m).log2()).sum(dim=-1)
    return (kl_pm + kl_qm) / 2  # (6,)


baseline = js_divergence(weights, w2).mean().item()  # head 1 vs head 2
print(f"head 1 against head 2: {baseline:.3f} bits")
# --8<-- [end:page]
