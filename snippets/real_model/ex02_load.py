from snippets.real_model.ex01_weights import model_dir

# isort: split
# --8<-- [start:page]
from transformers import AutoModel, AutoTokenizer

folder = model_dir()  # checks the weights' SHA-256, says what to install
tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
model = AutoModel.from_pretrained(
    folder, local_files_only=True, attn_implementation="eager"
).eval()  # "eager": the plain softmax, so the weights can be returned

config = model.config
print(
    config.num_hidden_layers, "layers,", config.num_attention_heads, "heads"
)
print("head width:", config.hidden_size // config.num_attention_heads)
# --8<-- [end:page]
