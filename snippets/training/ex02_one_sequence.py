from snippets.training.ex01_task import make_batch, torch

# --8<-- [start:page]
x, y = make_batch(1, torch.Generator().manual_seed(0))
print(" i |     v     k  place | v[i-1]  v[max k]")
for i, (xi, yi) in enumerate(zip(x[0].tolist(), y[0].tolist(), strict=True)):
    v, k, *place = xi
    code = "".join(str(int(p)) for p in place)  # the one-hot place
    print(f"{i:2d} | {v:5.2f} {k:5.2f} {code} |",
          f"{yi[0]:6.2f} {yi[1]:9.2f}")  # fmt: skip
# --8<-- [end:page]
