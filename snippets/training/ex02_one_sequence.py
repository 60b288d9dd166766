from snippets.training.ex01_task import make_batch, torch

# --8<-- [start:page]
x, y = make_batch(1, torch.Generator().manual_seed(0))
print(" i |     v     k   cos   sin | v[i-1]  v[max k]")
for i, (xi, yi) in enumerate(zip(x[0].tolist(), y[0].tolist(), strict=True)):
    v, k, c, s = xi
    print(f"{i:2d} | {v:5.2f} {k:5.2f} {c:5.2f} {s:5.2f} |",
          f"{yi[0]:6.2f} {yi[1]:9.2f}")  # fmt: skip
# --8<-- [end:page]
