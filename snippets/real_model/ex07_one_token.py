from snippets.real_model.ex03_attend import attentions

# isort: split
# --8<-- [start:page]
sentence = "The animal didn't cross the street because it was too tired."
tokens, weights = attentions(sentence)
it, layer = tokens.index("it"), 5  # the token; index 5, the last layer
rows = weights[layer, :, it]  # (12, T): where "it" looks, in each head
top = rows.argmax(-1)  # (12,): each head's most-attended token

print(f'most-attended token of "it", per head of layer {layer + 1}:')
for j in top.unique().tolist():  # each distinct token, in sentence order
    heads = (top == j).nonzero()[:, 0]  # the indices of the heads picking j
    weight = rows[heads, j].max()  # the largest weight a head gives it
    numbers = (heads + 1).tolist()  # counted from 1
    print(f"  {tokens[j]:>7}: heads {numbers}, largest weight {weight:.2f}")
# --8<-- [end:page]
