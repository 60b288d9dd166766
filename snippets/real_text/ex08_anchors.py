# --8<-- [start:page]
import math

# Vaswani et al. (2017), Table 3, rows (A) and the base model: English-to-
# German translation, development set (newstest2013), width 512 cut into h
# heads of d_k = 512 / h, computation held constant; one run per row.
# h: (perplexity per word piece, BLEU)
vaswani = {1: (5.29, 24.9), 4: (5.00, 25.5), 8: (4.92, 25.8),
           16: (4.91, 25.8), 32: (5.01, 25.4)}  # fmt: skip
# A public nanoGPT sweep (github.com/fredeil/nanoGPT, experiments/out/
# report_exp3.md): TinyStories by characters, 6 layers, width 256, 5000
# steps, one run per h, on an Apple GPU (MPS).
# h: (validation loss in nats per character, about how many ms per step)
tinystories = {4: (0.5954, 207), 8: (0.6000, 245), 16: (0.6011, 332),
               32: (0.6062, 640)}  # fmt: skip

print("Vaswani et al., d_model = 512: log perplexity (nats per word piece)")
print("   h  d_head   nats  vs best  BLEU")
best = min(math.log(p) for p, _ in vaswani.values())
for h, (perplexity, bleu) in vaswani.items():
    nats = math.log(perplexity)
    print(f"{h:4} {512 // h:7}  {nats:.3f}  {nats - best:+.3f}  {bleu}")
print(
    "nanoGPT on TinyStories, d_model = 256: validation loss (nats per char)"
)
print("   h  d_head    nats  vs best  ms/step")
lowest = min(loss for loss, _ in tinystories.values())
for h, (loss, ms) in tinystories.items():
    print(f"{h:4} {256 // h:7}  {loss:.4f}  {loss - lowest:+.4f}  {ms:7}")
# --8<-- [end:page]
