"""
expect: GL001 40
dynamic: confirm
source: https://github.com/TsingZ0/PFLlib/blob/d832e76f6a23b833038949ec1e4fdefe63a4d350/system/flcore/clients/clientamp.py

A FedAMP client in personalized federated learning: the server sends each client an attentive
"cloud" model u_i (a similarity-weighted mix of the other clients), and the client trains its own
model on local data plus a proximal penalty lamda/alphaK * ||w - u_i|| that should pull it
towards u_i. The flattened vector of the client's weights is assembled from p.data, so it is a
copy outside the graph and the penalty is a number that adds to the loss without giving any
parameter a gradient. The asserts show that the penalty term has no grad_fn, that a client with
a huge lamda ends the round with exactly the weights of a client with lamda = 0, and that building
the vector from the parameters themselves gives the penalty a gradient and pulls the client
towards u_i.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class AMPClient:
    def __init__(self, model, lamda, alpha_k=0.5, lr=0.05, flat_fn=None):
        self.model = model
        self.client_u = copy.deepcopy(model)
        self.lamda, self.alpha_k = lamda, alpha_k
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()
        self.flat_fn = flat_fn or self.flat_params
        self.last_penalty = None

    def receive_cloud_model(self, cloud):
        for u, c in zip(self.client_u.parameters(), cloud.parameters()):
            u.data = c.data.clone()

    def flat_params(self, module):
        return torch.cat([p.data.view(-1) for p in module.parameters()])

    def train(self, loader):
        for x, y in loader:
            loss = self.loss_fn(self.model(x), y)
            gm = self.flat_fn(self.model)
            pm = torch.cat([p.data.view(-1) for p in self.client_u.parameters()])
            penalty = 0.5 * self.lamda / self.alpha_k * torch.norm(gm - pm, p=2)
            self.last_penalty = penalty
            loss = loss + penalty
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


def flat_live(module):
    return torch.cat([p.view(-1) for p in module.parameters()])


def distance(a, b):
    return sum(((p - q) ** 2).sum() for p, q in zip(a.parameters(), b.parameters())).sqrt().item()


base = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
cloud = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
loader = [(torch.randn(32, 10), torch.randint(0, 4, (32,))) for _ in range(20)]

runs = {}
for name, lamda, fn in [("plain", 0.0, None), ("as_written", 5.0, None), ("live", 5.0, flat_live)]:
    c = AMPClient(copy.deepcopy(base), lamda, flat_fn=fn)
    c.receive_cloud_model(cloud)
    c.train(loader)
    runs[name] = c

assert runs["as_written"].last_penalty.grad_fn is None
assert runs["live"].last_penalty.grad_fn is not None
for p, q in zip(runs["as_written"].model.parameters(), runs["plain"].model.parameters()):
    assert torch.equal(p, q), "the attentive penalty never reached the weights"

d_written = distance(runs["as_written"].model, cloud)
d_live = distance(runs["live"].model, cloud)
print(f"distance to the cloud model after one round: as written {d_written:.3f}, live {d_live:.3f}")
assert d_live < 0.8 * d_written
