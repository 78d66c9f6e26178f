"""
expect: none
dynamic: dismiss
source: kinds check 32, kind 2

Adversarial autoencoder: the critic learns to tell encoder codes from prior
samples. The encoder's codes are detached on purpose because this loss trains
only the critic; backward happens at the top level and the critic's
optimizer is stepped inside a helper.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
critic = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
opt_c = torch.optim.SGD(critic.parameters(), lr=0.1)
bce = nn.BCEWithLogitsLoss()
x = torch.randn(64, 20)
enc_before = [p.detach().clone() for p in encoder.parameters()]
crit_before = [p.detach().clone() for p in critic.parameters()]


def apply_critic_update(opt):
    opt.step()
    opt.zero_grad()


for step in range(10):
    codes = encoder(x).detach()
    prior = torch.randn(64, 3)
    c_loss = bce(critic(prior), torch.ones(64, 1)) + bce(critic(codes), torch.zeros(64, 1))
    c_loss.backward()
    apply_critic_update(opt_c)

assert all(p.grad is None for p in encoder.parameters())
assert all(torch.equal(p, q) for p, q in zip(encoder.parameters(), enc_before))
assert any(not torch.equal(p, q) for p, q in zip(critic.parameters(), crit_before))
print("ok: only the critic trained")
