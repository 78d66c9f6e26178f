"""
expect: GL001 27
dynamic: confirm
source: none, invented

REINFORCE on a toy gridworld with an entropy bonus. The loss is written in one expression: the policy-gradient
term uses the live logits `out`, but the entropy bonus is computed from F.log_softmax(out.detach(), -1). The
entropy term is therefore a constant: it shifts the loss value but contributes no gradient, so the intended
exploration pressure never acts on the policy. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 4))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
beta = 0.05

states = torch.randn(16, 4)
for step in range(3):
    out = policy(states)
    actions = torch.distributions.Categorical(logits=out).sample()
    returns = torch.randn(16)
    logp = F.log_softmax(out, -1).gather(1, actions[:, None]).squeeze(1)
    loss = -(logp * returns).mean() + beta * (F.softmax(out.detach(), -1) * F.log_softmax(out.detach(), -1)).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

# Proof: the entropy term alone has no graph, so the total gradient equals the policy-gradient term alone.
out = policy(states)
ent_term = beta * (F.softmax(out.detach(), -1) * F.log_softmax(out.detach(), -1)).sum(-1).mean()
assert not ent_term.requires_grad and ent_term.item() != 0
live = beta * (F.softmax(out, -1) * F.log_softmax(out, -1)).sum(-1).mean()
g_live = torch.autograd.grad(live, policy[0].weight)[0]
assert g_live.abs().sum() > 0, "with live logits the entropy term would train the policy"
print("k06 ok: entropy bonus trains nothing")
