from snippets.real_text.ex02_model import GPT, Config

# isort: split
# --8<-- [start:page]
HEADS = [1, 2, 4, 8, 16]


def count_parameters(model):
    return sum(p.numel() for p in model.parameters())


for h in HEADS:
    model = GPT(Config(num_heads=h))
    d_head = model.blocks[0].attn.d_head
    print(f"h = {h:2}, d_head = {d_head:2}:",
          f"{count_parameters(model):,} parameters")  # fmt: skip
# --8<-- [end:page]
