"""
expect: GL001 26
dynamic: confirm
source: kinds check 40, kind 3

A FedProx client adds mu/2 * ||w - w_global||^2 to keep its local update
near the server model, but reads its own current weights through
state_dict(), which hands back detached tensors. The proximal term changes
the reported loss yet contributes no gradient, so nothing anchors the client.
"""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class Client:
    def __init__(self, model, data, mu=0.5, lr=0.05):
        self.model = model
        self.x, self.y = data
        self.mu = mu
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)

    def prox_penalty(self, global_weights):
        current = self.model.state_dict()
        total = 0.0
        for name, w_g in global_weights.items():
            total = total + ((current[name] - w_g) ** 2).sum()
        return 0.5 * self.mu * total

    def loss(self, global_weights, use_prox=True):
        logits = self.model(self.x)
        task = nn.functional.cross_entropy(logits, self.y)
        if use_prox:
            return task + self.prox_penalty(global_weights)
        return task

    def grads(self, global_weights, use_prox):
        self.opt.zero_grad()
        loss = self.loss(global_weights, use_prox)
        loss.backward()
        return loss.item(), [p.grad.clone() for p in self.model.parameters()]


server = nn.Sequential(nn.Linear(7, 10), nn.ReLU(), nn.Linear(10, 3))
global_weights = {k: v.clone() for k, v in server.state_dict().items()}

local = copy.deepcopy(server)
with torch.no_grad():
    for p in local.parameters():
        p.add_(0.3 * torch.randn_like(p))  # client has drifted from the server

client = Client(local, (torch.randn(20, 7), torch.randint(0, 3, (20,))))
l_prox, g_prox = client.grads(global_weights, use_prox=True)
l_plain, g_plain = client.grads(global_weights, use_prox=False)

assert l_prox > l_plain + 1e-3, "proximal term adds to the loss value"
assert all(torch.allclose(a, b) for a, b in zip(g_prox, g_plain)), \
    "proximal term should contribute no gradient"
print("dead FedProx term confirmed:", l_prox, l_plain)
