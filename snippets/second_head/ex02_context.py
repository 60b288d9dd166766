from snippets.second_head.ex01_hand_set_head import values2, w2

# --8<-- [start:page]
context2 = w2 @ values2  # (6, 2)
print(context2[1])
# --8<-- [end:page]
