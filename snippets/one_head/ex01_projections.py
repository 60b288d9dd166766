import torch

from snippets.attention_inputs import inputs

# --8<-- [start:page]
torch.manual_seed(123)
d_model, d_head = 3, 2  # numbers per token in, head width out

W_query = torch.rand(d_model, d_head)  # (3, 2)
W_key = torch.rand(d_model, d_head)  # (3, 2)
W_value = torch.rand(d_model, d_head)  # (3, 2)

queries = inputs @ W_query  # (6, 2): what each token is looking for
keys = inputs @ W_key  # (6, 2): what each token offers to be found by
values = inputs @ W_value  # (6, 2): what each token hands over when found
print(queries.shape, keys.shape, values.shape)
# --8<-- [end:page]
