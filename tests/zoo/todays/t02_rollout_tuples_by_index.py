"""expect: GL002 32
dynamic: confirm
source: https://github.com/Quantum-Cheese/DeepReinforcementLearning_Pytorch/blob/master/Actor_Critic/A3C/worker.py

Each environment step is stored as a tuple (obs, action, logp, reward) in a list. At update
time the log-probability column is pulled back out by position (row[2]) and packed with
torch.tensor(...), which builds a new tensor from the numbers alone and drops the graph
that led back to the actor. The baseline network's squared error keeps the total loss
differentiable, so backward() succeeds, but the actor's weights get no gradient at all.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def collect(actor, n_steps):
    rows = []
    for _ in range(n_steps):
        obs = torch.randn(3)
        mean = actor(obs)
        noise = torch.randn(1) * 0.3
        action = (mean + noise).detach()
        logp = -((action - mean) ** 2).sum() / (2 * 0.3 ** 2)
        reward = float(-(action - 1.0).abs())
        rows.append((obs, action, logp, reward))
    return rows


def update(actor, baseline, optimiser, rows):
    observations = torch.stack([row[0] for row in rows])
    rewards = torch.tensor([row[3] for row in rows])
    logps = torch.tensor([row[2] for row in rows], dtype=torch.float)
    predicted = baseline(observations).squeeze(-1)
    adv = rewards - predicted.detach()
    loss = -(adv * logps).mean() + F.mse_loss(predicted, rewards)
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return loss.item()


torch.manual_seed(7)
actor = nn.Linear(3, 1)
baseline = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
optimiser = torch.optim.Adam(list(actor.parameters()) + list(baseline.parameters()), lr=1e-2)
w_start = actor.weight.detach().clone()

for epoch in range(3):
    print("epoch", epoch, "loss", update(actor, baseline, optimiser, collect(actor, 8)))

assert actor.weight.grad is None and actor.bias.grad is None, "actor should have no grad"
assert torch.equal(w_start, actor.weight), "actor changed"
assert baseline[0].weight.grad is not None
print("actor untouched after 3 updates; baseline trained")
