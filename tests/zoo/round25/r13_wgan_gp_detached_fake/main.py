"""
expect: none
dynamic: dismiss
source: https://github.com/eriklindernoren/PyTorch-GAN/issues/136

The issue asks whether the WGAN-GP critic step should use `generator(z).detach()`.
Here the trainer in trainer.py does detach the fake batch in the critic step (and
builds the penalty input from it), which is the intended stop-gradient: the critic
loss must not train the generator. The generator step then goes through the
critic without any detach. The asserts check the critic step leaves the generator
without gradients, that both networks change over training, and that the
generator's weights move only on generator steps.
"""
import torch
import torch.nn as nn

from trainer import WGANGPTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 8))
D = nn.Sequential(nn.Linear(8, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
trainer = WGANGPTrainer(G, D)
real = torch.randn(64, 8) * 2 + 3
z = torch.randn(64, 4)

g_snap = [p.detach().clone() for p in G.parameters()]
d_snap = [p.detach().clone() for p in D.parameters()]
g_moves = []
for it in range(1, 7):
    before = G[0].weight.detach().clone()
    trainer.train_iteration(it, real, z)
    g_moves.append(not torch.equal(before, G[0].weight))

assert all(trainer.g_grad_during_d)
assert g_moves == [it % 3 == 0 for it in range(1, 7)]
assert any(not torch.equal(a, b) for a, b in zip(g_snap, G.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d_snap, D.parameters()))
print("ok")
