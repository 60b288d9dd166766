from snippets.real_text.ex01_corpus import torch, train_data, val_data
from snippets.real_text.ex02_model import GPT

# isort: split
# --8<-- [start:page]
import math
import time

import torch.nn.functional as F

STEPS, BATCH = 2000, 32  # BATCH windows of text per step
LR, WARMUP = 1e-3, 100  # the peak learning rate, reached after WARMUP steps


def batch(data, context, generator):
    """Windows of text at random places, and the character that follows
    each position: (b, t) inputs and (b, t) targets."""
    start = torch.randint(len(data) - context, (BATCH,), generator=generator)
    x = torch.stack([data[i : i + context] for i in start])
    y = torch.stack([data[i + 1 : i + 1 + context] for i in start])
    return x, y


def learning_rate(step, steps):
    """Up in a straight line for WARMUP steps, then down along half a cosine
    to a tenth of LR at the last step."""
    if step < WARMUP:
        return LR * (step + 1) / WARMUP
    done = (step - WARMUP) / max(1, steps - 1 - WARMUP)  # 0, ..., 1
    return LR * (0.1 + 0.45 * (1 + math.cos(math.pi * done)))


@torch.no_grad()
def validation_loss(model, context):
    """Mean cross-entropy, in nats per character, over the whole validation
    text, cut into windows of `context` characters."""
    n = (len(val_data) - 1) // context
    x = val_data[: n * context].view(n, context)  # (n, t)
    y = val_data[1 : n * context + 1].view(n, context)
    total = 0.0
    for i in range(0, n, 32):  # 32 windows at a time
        logits = model(x[i : i + 32])  # (32, t, vocab)
        target = y[i : i + 32].flatten()
        loss = F.cross_entropy(logits.flatten(0, 1), target, reduction="sum")
        total += loss.item()
    return total / y.numel()


def train(config, seed, steps=STEPS):
    """Returns the training loss of every step, the validation loss at the
    end, and the milliseconds per step."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small tensors; sums in one fixed order
    torch.manual_seed(seed)  # the same starting weights for every h
    model = GPT(config)
    order = torch.Generator().manual_seed(seed)  # the same batches, too
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR)
    losses, start = [], time.perf_counter()
    for step in range(steps):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, steps)
        x, y = batch(train_data, config.context, order)  # (b, t), (b, t)
        logits = model(x)  # (b, t, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    ms_per_step = 1000 * (time.perf_counter() - start) / steps
    val_loss = validation_loss(model, config.context)
    torch.set_num_threads(threads)
    return losses, val_loss, ms_per_step


# --8<-- [end:page]
