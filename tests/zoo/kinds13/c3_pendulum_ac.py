"""
expect: none
dynamic: dismiss
source: kind C

A DDPG-style actor-critic on random pendulum-like transitions. The critic's
update scores actor(s).detach() and is followed only by the critic optimizer's
step; the actor trains in its own step through the attached critic. Asserts:
the critic update changes the critic but not the actor, and the actor update
changes the actor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)

policy = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())
qnet = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
policy_opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
qnet_opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)

s = torch.randn(64, 3)
a = torch.rand(64, 1) * 2 - 1
r = torch.randn(64, 1)
s_next = torch.randn(64, 3)
gamma = 0.97

for it in range(3):
    # critic update
    with torch.no_grad():
        target = r + gamma * qnet(torch.cat([s_next, policy(s_next)], dim=-1))
    q_pred = qnet(torch.cat([s, a], dim=-1))
    q_on_policy = qnet(torch.cat([s, policy(s).detach()], dim=-1))
    critic_loss = F.mse_loss(q_pred, target) + 0.01 * q_on_policy.pow(2).mean()
    pol0 = [p.detach().clone() for p in policy.parameters()]
    q0 = [p.detach().clone() for p in qnet.parameters()]
    qnet_opt.zero_grad()
    critic_loss.backward()
    qnet_opt.step()
    assert any(not torch.equal(x0, p) for x0, p in zip(q0, qnet.parameters()))
    assert all(torch.equal(x0, p) for x0, p in zip(pol0, policy.parameters()))

    # actor update
    actor_loss = -qnet(torch.cat([s, policy(s)], dim=-1)).mean()
    policy_opt.zero_grad()
    actor_loss.backward()
    policy_opt.step()
    assert any(not torch.equal(x0, p) for x0, p in zip(pol0, policy.parameters()))

print("ok: critic and actor each train in their own step")
