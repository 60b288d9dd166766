from snippets.training.ex07_run_seeds import outcomes

# --8<-- [start:page]
print("        head 1: previous  max k | head 2: previous  max k")
for o in outcomes:
    (p1, m1), (p2, m2) = o.looks.tolist()
    print(f"seed {o.seed}: {p1:16.2f} {m1:6.2f} | {p2:16.2f} {m2:6.2f}")
# --8<-- [end:page]
