from snippets.real_model.ex03_attend import attentions

# isort: split
# --8<-- [start:page]
sentence = "The animal didn't cross the street because it was too tired."
tokens, weights = attentions(sentence)
it, layer = tokens.index("it"), 5  # the token, and the model's last layer
rows = weights[layer, :, it]  # (12, T): where "it" looks, in each head
top = rows.argmax(-1)  # (12,): each head's most-attended token

print(f'most-attended token of "it", per head of layer {layer}:')
for j in top.unique().tolist():  # each distinct token, in sentence order
    heads = (top == j).nonzero()[:, 0].tolist()
    weight = rows[heads, j].max()  # the largest weight a head gives it
    print(f"  {tokens[j]:>7}: heads {heads}, largest weight {weight:.2f}")
# --8<-- [end:page]
