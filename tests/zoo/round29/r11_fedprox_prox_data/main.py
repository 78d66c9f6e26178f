"""
expect: GL001 client.py:20
dynamic: confirm
source: https://github.com/MLOPTPSU/FedTorch/issues/11

In the FedTorch FedProx thread a reader notices that the proximal term
mu/2*||w - w_t|| is added to the loss through `param.data`, so it never takes
part in backprop (FedTorch then patches `.grad` by hand). Here the client keeps
only the loss term: `ProxClient.proximal_term` builds it wholly from `.data`,
so the whole term is a constant. The asserts show the local models after a
round are identical for mu=0 and mu=10 (FedProx silently degrades to FedAvg),
while a variant without `.data` does pull the client towards the server.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from client import ProxClient

torch.manual_seed(0)
torch.set_num_threads(1)

server = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
x = torch.randn(64, 6) + 2.0
y = torch.randint(0, 3, (64,))


def run_round(mu, client_cls=ProxClient):
    torch.manual_seed(1)
    c = client_cls(server, (x, y), mu=mu)
    state = c.local_train(steps=8)
    drift = sum((state[k] - v).pow(2).sum() for k, v in server.state_dict().items())
    return state, float(drift)


state0, drift0 = run_round(0.0)
state10, drift10 = run_round(10.0)

# the proximal term contributes nothing: mu changes nothing at all
for k in state0:
    assert torch.equal(state0[k], state10[k]), k
assert drift0 == drift10


class FixedClient(ProxClient):
    def proximal_term(self):
        total = 0.0
        for p_local, p_server in zip(self.model.parameters(), self.server_model.parameters()):
            total = total + (p_local - p_server.detach()).pow(2).sum()
        return self.mu / 2 * total


_, fixed_drift10 = run_round(10.0, FixedClient)
assert fixed_drift10 < 0.5 * drift0, (fixed_drift10, drift0)
print("ok: prox term inert; drift", drift0, "vs fixed", fixed_drift10)
