from snippets.one_head.ex01_projections import keys, queries

# --8<-- [start:page]
scores = queries @ keys.T  # (6, 6): query i against key j
print(scores[1])  # the row for "journey"
# --8<-- [end:page]
