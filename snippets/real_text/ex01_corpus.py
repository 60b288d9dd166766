# --8<-- [start:page]
from pydoc_data.topics import topics  # ships with every Python

import torch

# Python's documentation topics (what help("assert") shows), in name order
names = sorted(topics)
text = "".join(topics[name] for name in names)
chars = sorted(set(text))
VOCAB = len(chars)  # the model predicts one of these characters
index = {c: i for i, c in enumerate(chars)}
data = torch.tensor([index[c] for c in text])  # (n,): one id per character
split = int(0.9 * len(data))
train_data, val_data = data[:split], data[split:]  # first 90%, last 10%

print(f"{len(names)} topics, {len(text):,} characters, {VOCAB} distinct")
print(f"training: the first {len(train_data):,} characters,",
      f"validation: the last {len(val_data):,}")  # fmt: skip
print(text[: text.index("program:") + 8])
# --8<-- [end:page]
