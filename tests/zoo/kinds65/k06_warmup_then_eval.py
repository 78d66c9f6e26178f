"""
expect: none
dynamic: dismiss
source: none, invented

A house-price regressor with a warm-up epoch followed by regular epochs and a metrics pass between them.
The metrics helper switches autograd recording off with torch.set_grad_enabled(False) and leaves it off.
The epoch function re-enables recording only when asked via its `grad_on` argument. The warm-up epoch is
called with grad_on=False, but at that point nothing has turned recording off yet; every epoch that runs
after the metrics pass is called with grad_on=True, so each one records a graph and backpropagates. The
asserts check that every epoch's backward produced gradients, that the validation error drops, and that
recording is on at the end.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_metrics(regressor, features, prices):
    torch.set_grad_enabled(False)
    regressor.eval()
    mae = (regressor(features) - prices).abs().mean().item()
    regressor.train()
    return mae


def run_epoch(regressor, optimizer, features, prices, grad_on, batch_size=32):
    if grad_on:
        torch.set_grad_enabled(True)
    grad_norms = []
    perm = torch.randperm(len(features))
    for i in range(0, len(features), batch_size):
        idx = perm[i:i + batch_size]
        optimizer.zero_grad()
        loss = F.smooth_l1_loss(regressor(features[idx]), prices[idx])
        loss.backward()
        grad_norms.append(sum(p.grad.norm().item() for p in regressor.parameters()))
        optimizer.step()
    return grad_norms


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    features = torch.randn(160, 8)
    prices = features @ torch.linspace(-1, 1, 8).unsqueeze(1) + 0.5
    train_x, train_y = features[:128], prices[:128]
    val_x, val_y = features[128:], prices[128:]

    regressor = nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(regressor.parameters(), lr=5e-3)

    norms = run_epoch(regressor, optimizer, train_x, train_y, grad_on=False)
    assert all(n > 0 for n in norms)
    first_mae = compute_metrics(regressor, val_x, val_y)
    maes = [first_mae]
    for epoch in range(6):
        norms = run_epoch(regressor, optimizer, train_x, train_y, grad_on=True)
        assert all(n > 0 for n in norms)
        maes.append(compute_metrics(regressor, val_x, val_y))
    torch.set_grad_enabled(True)
    assert maes[-1] < maes[0]
    assert torch.is_grad_enabled()
    print("val MAE %.3f -> %.3f" % (maes[0], maes[-1]))


if __name__ == "__main__":
    main()
