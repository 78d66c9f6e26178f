"""
expect: none
dynamic: dismiss
source: none, invented

Client-side training for federated electricity-load forecasting (FedProx style). Before local training the client
snapshots the global weights with `{k: v.clone() for k, v in model.state_dict().items()}`; the local loss adds a
proximal term `(p - anchor[k]).pow(2).sum()` over `model.named_parameters()`. `state_dict()` tensors are detached,
so the anchor is a constant: gradient flows only through the live parameters, which is exactly the FedProx
intent. The snapshot is taken once, before the loop, and is never modified in place. Everything trains: not a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LoadForecaster(nn.Module):
    def __init__(self, window=24, horizon=6, hid=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(window, hid), nn.ReLU(), nn.Linear(hid, horizon))

    def forward(self, history):
        return self.net(history)


def make_batch(n=64, window=24, horizon=6):
    t0 = torch.rand(n, 1) * 100
    t = t0 + torch.arange(window + horizon).float()
    series = torch.sin(t * 2 * torch.pi / 24) + 0.1 * torch.randn(n, window + horizon)
    return series[:, :window], series[:, window:]


def main():
    torch.manual_seed(0)
    model = LoadForecaster()
    anchor = {k: v.clone() for k, v in model.state_dict().items()}
    anchor_copy = {k: v.clone() for k, v in anchor.items()}
    mu = 0.01
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    first = None
    for step in range(200):
        history, future = make_batch()
        task = F.mse_loss(model(history), future)
        prox = sum((p - anchor[k]).pow(2).sum() for k, p in model.named_parameters())
        loss = task + 0.5 * mu * prox
        opt.zero_grad()
        loss.backward()
        for k, p in model.named_parameters():
            assert p.grad is not None, f"{k} got no gradient"
        opt.step()
        first = task.item() if first is None else first
    assert prox.item() > 0 and prox.requires_grad
    for k, p in model.named_parameters():
        assert not torch.equal(anchor[k], p), f"{k} did not train"
        assert torch.equal(anchor[k], anchor_copy[k]), "anchor drifted"
    assert task.item() < first
    print(f"ok: forecaster trains with proximal term, mse {first:.3f} -> {task.item():.3f}")


if __name__ == "__main__":
    main()
