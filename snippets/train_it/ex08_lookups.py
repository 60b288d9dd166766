"""The task family of the how-many-heads page, in float64, from the random
numbers the live trainer shares with Python."""

from snippets.how_many_heads.ex01_tasks import LOOKUPS
from snippets.train_it.ex01_stream import (
    D_MODEL,
    T,
    math,
    random,
    torch,
    uniforms,
)
from snippets.train_it.ex02_backward import F
from snippets.train_it.ex03_train import BATCH, STEPS, one_thread
from snippets.train_it.ex05_claims import TEST_SEED, TOL
from snippets.training.ex03_model import Attention
from snippets.training.ex05_train import N_TEST

# isort: split
# --8<-- [start:page]
CELL_WIDTH = 12  # how-many-heads' width: h heads of width CELL_WIDTH // h


def cell_model(k, h):
    """h heads side by side at CELL_WIDTH, then W_o down to k outputs."""
    return Attention(h, CELL_WIDTH // h, n_outputs=k).double()


def lookups_weights(seed, k):
    """initial_weights for k outputs at CELL_WIDTH: the shapes, and so the
    numbers, are the same for every split of the width into heads."""
    rng = random.Random(seed)
    width = CELL_WIDTH
    shapes = {"W_query": (width, D_MODEL), "W_key": (width, D_MODEL),
              "W_value": (width, D_MODEL), "W_o": (k, width)}  # fmt: skip
    weights = {}
    for name, (n_out, n_in) in shapes.items():
        bound = 1 / math.sqrt(n_in)
        weight = (2 * uniforms(rng, n_out, n_in) - 1) * bound  # (out, in)
        bias = (2 * uniforms(rng, n_out) - 1) * bound  # (out,)
        weights |= {f"{name}.weight": weight, f"{name}.bias": bias}
    return weights


def lookups_batch(n, rng, k):
    """make_batch's sequences, drawn alike, with the first k lookups."""
    v = uniforms(rng, n, T) * 2 - 1  # (n, T) in (-1, 1)
    key = uniforms(rng, n, T)  # (n, T) in (0, 1)
    place = torch.eye(T, dtype=torch.float64).expand(n, T, T)
    x = torch.cat([v[..., None], key[..., None], place], dim=-1)
    return x, torch.stack([f(v, key) for f in LOOKUPS[:k]], dim=-1)


@one_thread()
def train_lookups(k, h, seed, lr, steps=STEPS, start=None):
    """h heads on k lookups, as train_pytorch trains the designs of width
    4: the key bias stays put. Returns the model and the losses."""
    model = cell_model(k, h)
    model.load_state_dict(start or lookups_weights(seed, k))
    model.W_key.bias.requires_grad_(False)
    trained = [p for p in model.parameters() if p.requires_grad]
    data = random.Random(seed)
    optimizer = torch.optim.Adam(trained, lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    losses = []
    for _ in range(steps):
        x, y = lookups_batch(BATCH, data, k)
        loss = F.mse_loss(model(x)[0], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
    return model, losses


held = lookups_batch(N_TEST, random.Random(TEST_SEED), len(LOOKUPS))


def accurate(model, k):
    """On the held-out sequences: accurate predictions on each lookup."""
    x, y = held[0], held[1][..., :k]  # (n, T, 8), (n, T, k)
    with torch.no_grad():
        out = model(x)[0]  # (n, T, k)
    return ((out - y).abs() < TOL).sum(dim=(0, 1)).tolist()


# --8<-- [end:page]
