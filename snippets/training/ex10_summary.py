from snippets.training.ex07_run_seeds import outcomes

# --8<-- [start:page]
print("      JS divergence   two heads of width 2   one head of width 4")
print("seed  before  after   acc prev  max k   MSE   acc prev  max k   MSE")
for o in outcomes:
    (p2, m2), (p1, m1) = o.two.test_accuracy, o.one.test_accuracy
    print(f"{o.seed:4d}  {o.js_before:6.3f}  {o.js_after:5.3f}   "
          f"{p2:8.2f}  {m2:5.2f}  {o.two.test_mse:.3f}   "
          f"{p1:8.2f}  {m1:5.2f}  {o.one.test_mse:.3f}")  # fmt: skip
# --8<-- [end:page]
