"""
expect: none
dynamic: dismiss
source: https://github.com/KarhouTam/FL-bench/issues/165

A FedProx client in a federated-learning benchmark snapshots the global weights with
`[w.clone().detach() for w in model.parameters()]` (the fix proposed in the issue, which found that a shallow
`list(model.parameters())` aliased the live weights and made the proximal term zero) and, after
loss.backward(), adds the proximal gradient mu * (w - w_global) straight into each parameter's .grad through
.data before optimizer.step(). The detach is intended (the global point is a constant anchor) and the .data
edits touch only gradient buffers after backward has finished, so no recorded op is affected. The asserts
check that the added term equals the analytic proximal gradient, that local training still lowers the
client loss, and that with mu > 0 the client drifts less from the global model than plain FedAvg (mu = 0).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from client import FedProxClient

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(64, 10)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
loader = [(x[i : i + 16], y[i : i + 16]) for i in range(0, 64, 16)]

global_model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
global_state = copy.deepcopy(global_model.state_dict())


def drift(state):
    return sum((state[k] - global_state[k]).pow(2).sum() for k in state).sqrt().item()


# one step by hand: the added term equals mu * (w - w_global)
probe = FedProxClient(copy.deepcopy(global_model), loader[:1], mu=0.5, lr=0.1, local_epochs=1)
probe.model.load_state_dict(global_state)
with torch.no_grad():
    for p in probe.model.parameters():
        p.add_(0.01 * torch.randn_like(p))
anchor = [w.clone().detach() for w in global_model.parameters()]
plain = torch.autograd.grad(F.cross_entropy(probe.model(loader[0][0]), loader[0][1]), list(probe.model.parameters()))
probe.optimizer.zero_grad()
F.cross_entropy(probe.model(loader[0][0]), loader[0][1]).backward()
for w, w_t in zip(probe.model.parameters(), anchor):
    w.grad.data += probe.mu * (w.data - w_t.data)
for w, w_t, g in zip(probe.model.parameters(), anchor, plain):
    assert torch.allclose(w.grad, g + 0.5 * (w.detach() - w_t), atol=1e-6)

before = F.cross_entropy(global_model(x), y).item()
prox = FedProxClient(copy.deepcopy(global_model), loader, mu=0.5, local_epochs=5)
avg = FedProxClient(copy.deepcopy(global_model), loader, mu=0.0, local_epochs=5)
prox_state, avg_state = prox.fit(global_state), avg.fit(global_state)
after = F.cross_entropy(prox.model(x), y).item()
assert after < before
assert 0 < drift(prox_state) < drift(avg_state)
print("client loss %.3f -> %.3f; drift FedProx %.3f < FedAvg %.3f" % (before, after, drift(prox_state), drift(avg_state)))
