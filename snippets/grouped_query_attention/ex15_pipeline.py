from snippets.grouped_query_attention.ex06_equals_mha import x
from snippets.grouped_query_attention.ex07_sdpa_gqa import gqa
from snippets.multi_head_attention.ex10_pipeline import record, steps_of
from snippets.second_head.ex10_pipeline import pipeline

# --8<-- [start:page]
seen = record(gqa, x)  # the 12 query heads and 4 key-value heads above
h, h_kv = seen["Q"].shape[1], seen["K"].shape[1]
title = (f"{h} query heads in {h_kv} groups of {h // h_kv}: each group "
         "shares one head of keys and values")  # fmt: skip
fig = pipeline(title, steps_of(seen))
# --8<-- [end:page]
