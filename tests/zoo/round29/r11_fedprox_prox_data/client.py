import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProxClient:
    """One FedProx client: local SGD with a proximal pull towards the server model."""

    def __init__(self, server_model, data, mu, lr=0.1):
        self.model = copy.deepcopy(server_model)
        self.server_model = server_model
        self.x, self.y = data
        self.mu = mu
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)

    def proximal_term(self):
        total = 0.0
        for p_local, p_server in zip(self.model.parameters(), self.server_model.parameters()):
            total = total + (p_local.data - p_server.data).pow(2).sum()
        return self.mu / 2 * total

    def local_train(self, steps=5):
        for _ in range(steps):
            self.opt.zero_grad()
            task = F.cross_entropy(self.model(self.x), self.y)
            loss = task + self.proximal_term()
            loss.backward()
            self.opt.step()
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}
