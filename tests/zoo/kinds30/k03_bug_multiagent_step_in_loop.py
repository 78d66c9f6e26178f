"""
expect: GL005 36
dynamic: confirm
source: kinds check 30, kind 2

Three traffic-light agents share a two-layer observation encoder; one forward
pass yields all three policy-gradient losses. Stepping the optimizer inside
the per-agent loop rewrites the encoder weights in place while the next
agent's backward still needs the saved copies from that shared pass.
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

err = None
try:
    for loss in losses:
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
except RuntimeError as e:
    err = e

assert err is not None, "expected the second backward to fail"
assert "modified by an inplace operation" in str(err), str(err)
print("second agent's backward failed:", str(err)[:90])
