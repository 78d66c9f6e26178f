"""
expect: GL001 32
dynamic: confirm
source: kinds check 19, kind 1 (written for this check)

An actor-critic rollout loss is built with `+=` over the steps, but the value
term adds `critic(s).detach()`, so it is a plain number: the critic never gets a
gradient and the value coefficient changes nothing. The asserts show the critic's
grads stay None and the actor's gradient is identical for c_v = 0 and c_v = 0.5.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
OBS, ACT, T = 6, 3, 5

actor = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, ACT))
critic = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=1e-3)

states = torch.randn(T, OBS)
actions = torch.randint(0, ACT, (T,))
returns = torch.randn(T)


def rollout_loss(c_v):
    loss = 0.0
    for t in range(T):
        logp = torch.log_softmax(actor(states[t]), -1)[actions[t]]
        adv = returns[t] - critic(states[t]).squeeze(-1).detach()  # fine: baseline
        loss += -logp * adv
        v = critic(states[t]).detach().squeeze(-1)
        loss += c_v * (v - returns[t]) ** 2
    loss /= T
    return loss


def actor_grad(c_v):
    opt.zero_grad(set_to_none=True)
    rollout_loss(c_v).backward()
    return [p.grad.clone() for p in actor.parameters()]


g0 = actor_grad(0.0)
g1 = actor_grad(0.5)
assert all(p.grad is None for p in critic.parameters()), "critic should be starved"
assert all(torch.equal(a, b) for a, b in zip(g0, g1)), "value weight should be inert"

# fixed variant: keep the value term connected, and the critic trains
opt.zero_grad(set_to_none=True)
loss = sum((critic(states[t]).squeeze(-1) - returns[t]) ** 2 for t in range(T)) / T
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in critic.parameters())
print("k1_bug_rl: critic starved by detached value term; weight inert")
