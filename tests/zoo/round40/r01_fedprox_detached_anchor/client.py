"""FedProx client: local SGD on private data plus a proximal pull toward the global weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net():
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))


class FedProxClient:
    def __init__(self, data, mu=0.01, lr=0.1, local_steps=5):
        self.net = make_net()
        self.data = data
        self.mu = mu
        self.lr = lr
        self.local_steps = local_steps

    def set_parameters(self, arrays):
        keys = list(self.net.state_dict().keys())
        state = {k: torch.from_numpy(a) for k, a in zip(keys, arrays)}
        self.net.load_state_dict(state)

    def proximal_term(self, global_params):
        term = 0.0
        for local_weights, global_weights in zip(self.net.parameters(), global_params):
            term = term + (local_weights.detach() - global_weights).norm(2) ** 2
        return term

    def fit(self, arrays):
        self.set_parameters(arrays)
        global_params = [torch.from_numpy(a) for a in arrays]
        opt = torch.optim.SGD(self.net.parameters(), lr=self.lr)
        x, y = self.data
        for _ in range(self.local_steps):
            opt.zero_grad()
            task_loss = F.cross_entropy(self.net(x), y)
            loss = task_loss + (self.mu / 2) * self.proximal_term(global_params)
            loss.backward()
            opt.step()
        return [v.cpu().numpy() for v in self.net.state_dict().values()]
