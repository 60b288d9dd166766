from snippets.training.ex03_model import Attention, count_parameters

# --8<-- [start:page]
two_heads = Attention(n_heads=2, d_head=2)
one_head = Attention(n_heads=1, d_head=4)
print("two heads of width 2:", count_parameters(two_heads), "parameters")
print("one head of width 4: ", count_parameters(one_head), "parameters")
# --8<-- [end:page]
