"""
expect: GL001 fedprox_client.py:20
dynamic: confirm
source: https://github.com/ispras/FedXplore/blob/20764b3480aa7a0b27d6effbeb1fb221276967bf/src/federated_methods/fedprox/fedprox_client.py

A small FedProx simulation: a server model is broadcast to non-IID clients, and each client adds
the proximal term mu/2 * ||w - w_server||^2 to its cross-entropy before local SGD. The client
builds that term from self.model.state_dict(), whose tensors are detached copies of the
parameters, so the term has no path back to the weights the client optimizer holds: its value is
printed and logged, but it contributes no gradient. The asserts show the term does not require
grad, that local training with mu=5 ends at exactly the same weights as mu=0 (FedProx silently
degrades to FedAvg), and that the intended version built from named_parameters() does pull the
client weights toward the server.
"""
import copy

import torch
import torch.nn as nn

from fedprox_client import FedProxClient

torch.manual_seed(0)
torch.set_num_threads(1)


def make_client_data(shift, n=64):
    x = torch.randn(n, 10) + shift
    y = (x[:, 0] + 0.5 * x[:, 1] > shift).long()
    return x, y


global_model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 2))
server_state = copy.deepcopy(global_model.state_dict())
datasets = [make_client_data(s) for s in (-1.0, 0.0, 2.0)]


def run_client(mu, data, steps=20):
    client = FedProxClient(copy.deepcopy(global_model), data, mu=mu)
    client.receive(server_state)
    new_state = client.local_train(steps)
    return client, new_state


def drift(state):
    return sum((state[k] - server_state[k]).norm() ** 2 for k in state).sqrt().item()


# 1) the proximal term as written is cut from the parameters
client, _ = run_client(mu=5.0, data=datasets[2])
prox = client.proximal_term()
assert prox.item() > 0.0, "client has moved, so the penalty value is positive"
assert not prox.requires_grad and prox.grad_fn is None

# 2) FedProx with a large mu trains exactly like FedAvg (mu = 0)
_, state_prox = run_client(mu=5.0, data=datasets[2])
_, state_avg = run_client(mu=0.0, data=datasets[2])
for k in state_prox:
    assert torch.equal(state_prox[k], state_avg[k]), k


# 3) intended: the same penalty built from the live parameters does act on the weights
class LiveProxClient(FedProxClient):
    def proximal_term(self):
        sq = [
            (p - self.server_state[name]).norm() ** 2
            for name, p in self.model.named_parameters()
        ]
        return 0.5 * self.mu * sum(sq)


live = LiveProxClient(copy.deepcopy(global_model), datasets[2], mu=5.0)
live.receive(server_state)
with torch.no_grad():
    for p in live.model.parameters():
        p.add_(0.05)
live.model.zero_grad()
live.proximal_term().backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in live.model.parameters())

live = LiveProxClient(copy.deepcopy(global_model), datasets[2], mu=5.0)
live.receive(server_state)
state_live = live.local_train(20)
print(f"drift from server: FedAvg {drift(state_avg):.4f}  buggy FedProx {drift(state_prox):.4f}"
      f"  intended FedProx {drift(state_live):.4f}")
assert drift(state_live) < 0.5 * drift(state_avg)
