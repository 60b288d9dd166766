"""The same run in PyTorch: the training page's model, autograd,
torch.optim.Adam and CosineAnnealingLR, in float64."""

import hashlib
import os
from pathlib import Path

from snippets import sources_key
from snippets.train_it.ex01_stream import (
    initial_weights,
    make_batch,
    random,
    torch,
)
from snippets.train_it.ex02_backward import F
from snippets.train_it.ex03_train import (
    BATCH,
    LR,
    STEPS,
    one_thread,
    train_by_hand,
)
from snippets.training.ex03_model import Attention


# isort: split
# --8<-- [start:define]
@one_thread()
def train_pytorch(n_heads, d_head, seed, steps=STEPS, start=None):
    """The training page's fit, from the same weights (or start, a
    state_dict) and the same sequences. The key bias is not trained: its
    gradient is zero (autograd's is rounding noise, which Adam follows)."""
    model = Attention(n_heads, d_head).double()
    model.load_state_dict(start or initial_weights(seed))
    model.W_key.bias.requires_grad_(False)  # as by hand: it stays put
    trained = [p for p in model.parameters() if p.requires_grad]
    data = random.Random(seed)
    optimizer = torch.optim.Adam(trained, lr=LR)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    losses = []
    for _ in range(steps):
        x, y = make_batch(BATCH, data)
        loss = F.mse_loss(model(x)[0], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
    return model.state_dict(), losses


# --8<-- [end:define]


# Not on the page. This file run on its own, the next snippet and the tests
# that import it train the same two runs as the page; `saved` keeps them under
# .cache/train_it/, keyed on the code they import and torch's version, and
# loads them while that code is unchanged. The page's own blocks, which the
# tests run as a reader would, always train; so does `make twin`, with
# fresh_train_pytorch.
CACHE = Path(__file__).parents[2] / ".cache" / "train_it"


def saved(train):
    def train_or_load(*args, **kwargs):
        code = sources_key("snippets.train_it.ex04_pytorch")  # (not __main__)
        key = torch.__version__ + code + repr((args, kwargs))
        key = hashlib.sha256(f"{train.__name__} {key}".encode()).hexdigest()
        path = CACHE / f"demo-{key[:16]}.pt"
        if path.exists():
            return torch.load(path, weights_only=False)
        result = train(*args, **kwargs)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        torch.save(result, partial)
        partial.replace(path)  # atomic: nobody reads half a file
        return result

    return train_or_load


fresh_train_pytorch, fresh_train_by_hand = train_pytorch, train_by_hand
train_pytorch, train_by_hand = saved(train_pytorch), saved(train_by_hand)

# --8<-- [start:run]
_, mine, my_losses = train_by_hand(n_heads=2, seed=0)
theirs, losses = train_pytorch(n_heads=2, d_head=2, seed=0)
for step in [1, STEPS]:
    print(f"step {step}: loss {my_losses[step - 1]:.8f} by hand,",
          f"{losses[step - 1]:.8f} in PyTorch")  # fmt: skip
gap = max(abs(a / b - 1) for a, b in zip(my_losses, losses, strict=True))
print("every step's loss within 1e-9 of PyTorch's:", gap < 1e-9)
weights = max((mine[p] - w).abs().max() for p, w in theirs.items())
print("every weight within 1e-9 of PyTorch's:", weights.item() < 1e-9)
# --8<-- [end:run]
