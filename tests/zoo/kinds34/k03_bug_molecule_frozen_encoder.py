"""
expect: GL001 31
dynamic: confirm
source: kinds check 34, kind 2

A plain learner for molecular-property regression receives a ModuleDict network
built by a factory, and builds Adam over all of its parameters. Its loss runs the
fingerprint encoder under torch.no_grad(), so the encoder is handed to the
optimizer yet never receives a gradient and never changes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def build_network(n_bits=64, hidden=32):
    return nn.ModuleDict({
        "encoder": nn.Sequential(nn.Linear(n_bits, hidden), nn.ReLU(), nn.Linear(hidden, hidden)),
        "head": nn.Linear(hidden, 1),
    })


class PropertyLearner:
    def __init__(self, net, lr=1e-2):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)

    def loss(self, fingerprints, target):
        with torch.no_grad():
            z = self.net["encoder"](fingerprints)
        pred = self.net["head"](z).squeeze(-1)
        return F.mse_loss(pred, target)

    def step(self, fingerprints, target):
        self.opt.zero_grad()
        loss = self.loss(fingerprints, target)
        loss.backward()
        self.opt.step()
        return loss.item()


learner = PropertyLearner(build_network())
fps = (torch.rand(128, 64) < 0.2).float()
logp = fps[:, :8].sum(-1) - 0.5 * fps[:, 8:16].sum(-1)
enc_before = [p.detach().clone() for p in learner.net["encoder"].parameters()]
for _ in range(20):
    learner.step(fps, logp)

assert all(p.grad is None for p in learner.net["encoder"].parameters())
assert all(torch.equal(a, b) for a, b in zip(enc_before, learner.net["encoder"].parameters()))
assert all(p.grad is not None for p in learner.net["head"].parameters())
print("encoder never trained; only the head moved")
