from snippets.real_model.ex04_find_heads import scores

# --8<-- [start:page]
on_cls, on_sep = scores[2], scores[3]  # (layers, heads) each
print("layer  on [CLS]  on [SEP]   (mean over the layer's heads)")
for layer, (c, s) in enumerate(
    zip(on_cls.mean(-1), on_sep.mean(-1), strict=True), start=1
):
    print(f"{layer:5d}  {c:8.2f}  {s:8.2f}")
# --8<-- [end:page]
