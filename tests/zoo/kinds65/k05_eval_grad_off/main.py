"""
expect: GL003 main.py:32
dynamic: confirm
source: none, invented

A small text-feature classifier trained for a few epochs with a validation pass after each one. The
validation helper turns autograd recording off with a bare torch.set_grad_enabled(False) and never turns
it back on. The epoch function only re-enables recording when its restore_grad argument is true, and the
training loop passes False: the first epoch runs (recording is still on from startup) but the second
epoch, called after validation left recording off, builds no graph and loss.backward() fails. The asserts
catch the "does not require grad" RuntimeError in that run, and show that the same loop passing
restore_grad=True trains every epoch.
"""
import torch
import torch.nn as nn

from engine import evaluate, train_epoch


def make_data():
    x = torch.randn(96, 10)
    y = (x[:, 0] - x[:, 3] > 0).long()
    batches = [(x[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    return batches, x[64:], y[64:]


def fit(epochs=3):
    batches, vx, vy = make_data()
    model = nn.Sequential(nn.Linear(10, 24), nn.Tanh(), nn.Linear(24, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for epoch in range(epochs):
        train_loss = train_epoch(model, opt, batches, restore_grad=False)
        val_loss = evaluate(model, vx, vy)
        print("epoch %d train %.3f val %.3f" % (epoch, train_loss, val_loss))


def fit_fixed(epochs=3):
    batches, vx, vy = make_data()
    model = nn.Sequential(nn.Linear(10, 24), nn.Tanh(), nn.Linear(24, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    val_losses = []
    for epoch in range(epochs):
        train_epoch(model, opt, batches, restore_grad=True)
        val_losses.append(evaluate(model, vx, vy))
    torch.set_grad_enabled(True)
    return val_losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    failed = False
    try:
        fit()
    except RuntimeError as err:
        failed = "does not require grad" in str(err)
    assert failed
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)

    val_losses = fit_fixed()
    assert len(val_losses) == 3 and val_losses[-1] < val_losses[0]
    assert torch.is_grad_enabled()


if __name__ == "__main__":
    main()
