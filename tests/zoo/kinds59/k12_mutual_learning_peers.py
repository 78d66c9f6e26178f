"""
expect: none
dynamic: dismiss
source: none, invented

Deep mutual learning: two peer classifiers in a list learn a synthetic 5-class spiral-like task,
each from the labels plus a KL term toward the other peer's prediction. `mutual_round(peers, opts,
x, y)` switches every peer to train mode, calls `peers[i](x)`, and uses `peers[j](x).detach()` of
the *other* peer as a fixed soft target, which is the intended design: each peer still reaches its
own loss through its own attached logits. Agreement between peers is logged through `.item()` and
NumPy, a copy that never feeds a loss. The asserts check that both peers get gradients, that their
weights move and that both reach good accuracy.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

K = 5


def spiral(n=200):
    y = torch.randint(0, K, (n,))
    r = torch.rand(n)
    t = y.float() * (2 * 3.1416 / K) + 2.5 * r + 0.2 * torch.randn(n)
    return torch.stack([r * torch.cos(t), r * torch.sin(t)], 1), y


def peer():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, K))


def mutual_round(peers, opts, x, y, kl_weight=1.0):
    log = {}
    for i in range(len(peers)):
        peers[i].train()
    for i in range(len(peers)):
        logits = peers[i](x)
        j = (i + 1) % len(peers)
        other = peers[j](x).detach()
        kl = F.kl_div(F.log_softmax(logits, -1), F.softmax(other, -1), reduction="batchmean")
        loss = F.cross_entropy(logits, y) + kl_weight * kl
        opts[i].zero_grad()
        loss.backward()
        opts[i].step()
        log[f"peer{i}"] = loss.item()
        agree = np.mean(logits.argmax(-1).cpu().numpy() == other.argmax(-1).cpu().numpy())
        log[f"agree{i}"] = float(agree)
    return log


if __name__ == "__main__":
    peers = [peer(), peer()]
    opts = [torch.optim.Adam(p.parameters(), lr=3e-3) for p in peers]
    w0 = [p[0].weight.detach().clone() for p in peers]
    for _ in range(400):
        x, y = spiral()
        log = mutual_round(peers, opts, x, y)
    x, y = spiral(2000)
    for i, p in enumerate(peers):
        assert p[0].weight.grad is not None and p[0].weight.grad.abs().sum() > 0
        assert (p[0].weight - w0[i]).abs().max().item() > 1e-3
        p.eval()
        with torch.no_grad():
            acc = (p(x).argmax(-1) == y).float().mean().item()
        assert acc > 0.8, (i, acc)
    print("k12_mutual_learning_peers: all checks passed")
