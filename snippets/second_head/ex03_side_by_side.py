from snippets.attention_inputs import tokens
from snippets.one_head.ex03_weights import weights
from snippets.second_head.ex01_hand_set_head import w2

# --8<-- [start:page]
print(f"{'journey looks at':<18}{'head 1':>8}{'head 2':>8}")
for token, a, b in zip(tokens, weights[1], w2[1], strict=True):
    print(f"{token:<18}{a:>8.2f}{b:>8.2f}")
# --8<-- [end:page]
