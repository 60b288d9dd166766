# --8<-- [start:page]
# Vaswani et al. (2017), Table 3, rows (A) and the base model: BLEU on the
# English-to-German development set (newstest2013), model width 512 split
# into h heads of width d_k = 512 / h, the computation held constant.
bleu = {1: 24.9, 4: 25.5, 8: 25.8, 16: 25.8, 32: 25.4}  # heads: BLEU
print("heads  d_k  BLEU  vs 8 heads")
for h, score in bleu.items():
    print(f"{h:>5}  {512 // h:>3}  {score}  {score - bleu[8]:>+10.1f}")
# --8<-- [end:page]
