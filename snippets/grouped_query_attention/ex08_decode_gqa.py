import torch

from snippets.grouped_query_attention.ex01_decode_step import decode
from snippets.grouped_query_attention.ex05_six_tokens import batch, mqa

# --8<-- [start:page]
cached = decode(mqa, batch)  # the same loop, the same six tokens
with torch.no_grad():
    full = mqa(batch)  # all six tokens at once, no cache
torch.testing.assert_close(cached, full)  # raises if any step differs
print("every step equals the uncached pass:", cached.shape)
# --8<-- [end:page]
