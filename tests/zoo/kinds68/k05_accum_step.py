"""
expect: none
dynamic: dismiss
source: none, invented

A regression trainer with gradient accumulation. `train_step` receives `sync` from the loop (true on every
fourth micro-batch); the loss is always backpropagated, scaled by the accumulation count, and the optimizer
steps only when `sync` is set. A detached copy of the unscaled loss is kept in a running list for the
progress bar and is never backpropagated. The asserts show that the weights do not move on non-sync
micro-batches, do move on sync ones, and the loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ACCUM = 4


def train_step(model, optimizer, batch, sync, running):
    x, y = batch
    pred = model(x).squeeze(-1)
    loss = F.smooth_l1_loss(pred, y)
    running.append(loss.detach())
    (loss / ACCUM).backward()
    if sync:
        optimizer.step()
        optimizer.zero_grad()
    return running[-1]


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    w_true = torch.randn(5)
    x = torch.randn(256, 5)
    y = x @ w_true
    running = []
    first_epoch = last_epoch = None
    for epoch in range(6):
        for i, batch in enumerate(zip(x.split(16), y.split(16))):
            snap = model[0].weight.detach().clone()
            sync = (i + 1) % ACCUM == 0
            train_step(model, optimizer, batch, sync, running)
            same = torch.equal(snap, model[0].weight)
            assert same != sync
        epoch_loss = torch.stack(running[-16:]).mean().item()
        first_epoch = epoch_loss if first_epoch is None else first_epoch
        last_epoch = epoch_loss
    assert last_epoch < first_epoch
    print(f"ok: accumulated loss {first_epoch:.3f} -> {last_epoch:.3f}")


if __name__ == "__main__":
    main()
