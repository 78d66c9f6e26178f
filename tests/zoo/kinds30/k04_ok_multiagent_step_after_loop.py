"""
expect: none
dynamic: dismiss
source: kinds check 30, kind 2

Same three traffic-light agents over one shared two-layer encoder pass, but
the loop only accumulates each agent's gradient (retain_graph keeps the
shared graph alive) and the optimizer steps once after the loop, so no
saved weight is edited before a backward reads it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
n_agents, obs_dim, n_actions = 3, 10, 4
encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
heads = nn.ModuleList(nn.Linear(32, n_actions) for _ in range(n_agents))
opt = torch.optim.SGD(list(encoder.parameters()) + list(heads.parameters()), lr=0.05)

obs = torch.randn(16, obs_dim)
actions = torch.randint(0, n_actions, (n_agents, 16))
returns = torch.randn(n_agents, 16)

z = encoder(obs)  # one shared forward pass
losses = []
for i, head in enumerate(heads):
    logp = torch.log_softmax(head(z), dim=-1)
    logp_a = logp.gather(1, actions[i].unsqueeze(1)).squeeze(1)
    losses.append(-(logp_a * returns[i]).mean())

w_before = encoder[2].weight.detach().clone()
g_sum = torch.autograd.grad(sum(losses), encoder[2].weight, retain_graph=True)[0]
opt.zero_grad()
for loss in losses:
    loss.backward(retain_graph=True)
opt.step()

g_acc = encoder[2].weight.grad.clone()
assert torch.allclose(g_acc, g_sum, atol=1e-6)  # accumulated == gradient of the summed loss
assert not torch.equal(w_before, encoder[2].weight)
assert all(h.weight.grad is not None for h in heads)
print("one step after accumulating all agents' gradients; |g| =", g_acc.norm().item())
