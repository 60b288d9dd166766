from snippets.one_head.ex01_projections import keys, queries

# --8<-- [start:page]
scores = queries @ keys.T  # (6, 6): row i = how well token i's query matches each key
print(scores[1])  # the row for "journey"
# --8<-- [end:page]
