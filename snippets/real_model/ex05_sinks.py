from snippets.real_model.ex02_load import model, tokenizer
from snippets.real_model.ex03_attend import sentences, torch
from snippets.real_model.ex04_find_heads import scores

# --8<-- [start:page]
on_cls, on_sep = scores[2], scores[3]  # (layers, heads) each
print("layer  on [CLS]  on [SEP]   (mean over the layer's heads)")
for layer, (c, s) in enumerate(
    zip(on_cls.mean(-1), on_sep.mean(-1), strict=True), start=1
):
    print(f"{layer:5d}  {c:8.2f}  {s:8.2f}")
# --8<-- [end:page]


# --8<-- [start:pairs]
def sinks_of_a_pair(first, second):
    """[CLS] first [SEP] second [SEP]: the weight each head's word tokens
    put on [CLS], and on both [SEP] tokens together, (2, layers, heads)."""
    batch = tokenizer(first, second, return_tensors="pt")
    with torch.no_grad():
        out = model(**batch, output_attentions=True)
    weights = torch.stack(out.attentions)[:, 0]  # (6, 12, T, T)
    ids = batch["input_ids"][0]  # (T,)
    cls, sep = ids == tokenizer.cls_token_id, ids == tokenizer.sep_token_id
    words = weights[:, :, ~(cls | sep)]  # (6, 12, words, T): words' rows
    on = [words[..., cls].sum(-1), words[..., sep].sum(-1)]
    return torch.stack(on).mean(-1), len(ids)  # (2, 6, 12), tokens


firsts, seconds = sentences[::2], sentences[1::2]  # 13 and 12: 12 pairs
pairs = [sinks_of_a_pair(a, b) for a, b in zip(firsts, seconds, strict=False)]
pair_sinks = torch.stack([s for s, _ in pairs]).mean(0)  # (2, 6, 12)
lengths = [n for _, n in pairs]
print(f"{len(pairs)} pairs of our sentences, {min(lengths)} to",
      f"{max(lengths)} tokens each, two [SEP] tokens")  # fmt: skip
print("layer  on [CLS]  on both [SEP]")
for layer, (c, s) in enumerate(pair_sinks.mean(-1).T.tolist(), start=1):
    print(f"{layer:5d}  {c:8.2f}  {s:13.2f}")
# --8<-- [end:pairs]
