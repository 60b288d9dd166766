import torch

from snippets.attention_inputs import inputs
from snippets.random_heads.ex01_init_schemes import inits
from snippets.random_heads.ex02_one_pair import random_head_weights


# --8<-- [start:page]
def js_divergence(p, q):  # per row, in bits: 0 = identical, 1 = disjoint
    m = (p + q) / 2
    kl_pm = (p * (p / m).log2()).sum(dim=-1)
    kl_qm = (q * (q / m).log2()).sum(dim=-1)
    return (kl_pm + kl_qm) / 2  # (6,)


def compare_random_heads(init, num_seeds=100):
    js, max_diff, from_uniform, same_argmax, corr, spread = (
        [] for _ in range(6)
    )
    for seed in range(num_seeds):
        torch.manual_seed(seed)
        a, scores_a = random_head_weights(init, inputs)  # (6, 6) each
        b, scores_b = random_head_weights(init, inputs)
        js.append(js_divergence(a, b).mean())
        max_diff.append((a - b).abs().max())
        from_uniform.append((torch.stack([a, b]) - 1 / 6).abs().max())
        same_argmax.append((a.argmax(-1) == b.argmax(-1)).float().mean())
        logits = torch.stack(
            [scores_a.flatten(), scores_b.flatten()]
        )  # (2,36)
        corr.append(torch.corrcoef(logits)[0, 1])
        scaled = scores_a / 2**0.5  # what the softmax sees, d_k = 2
        spread.append((scaled.max(-1).values - scaled.min(-1).values).mean())
    return {
        "js_bits": torch.stack(js).mean().item(),
        "max_abs_diff": torch.stack(max_diff).mean().item(),
        "max_from_uniform": torch.stack(from_uniform).mean().item(),
        "same_argmax": torch.stack(same_argmax).mean().item(),
        "logit_corr": torch.stack(corr).mean().item(),
        "score_spread": torch.stack(spread).mean().item(),
    }


results = {name: compare_random_heads(init) for name, init in inits.items()}

labels = {
    "js_bits": "JS divergence, bits",
    "max_abs_diff": "largest |A - B|",
    "max_from_uniform": "largest |w - 1/6|",
    "same_argmax": "same top token",
    "logit_corr": "score correlation",
    "score_spread": "score spread",
}
print(f"{'':<20}" + "".join(f"{name:>12}" for name in results))
for key, label in labels.items():
    row = "".join(f"{r[key]:>12.4f}" for r in results.values())
    print(f"{label:<20}{row}")
# --8<-- [end:page]
