import torch
import torch.nn as nn
import torch.nn.functional as F


class SplitClient:
    """Holds the bottom of the network and the raw data."""

    def __init__(self, model, lr=0.1):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self._cut_output = None

    def upload(self, x):
        self.opt.zero_grad()
        self._cut_output = self.model(x)
        smashed = self._cut_output.detach().requires_grad_()
        return smashed

    def download(self, grad_from_server):
        self._cut_output.backward(grad_from_server)
        self.opt.step()


class SplitServer:
    """Holds the top of the network and the labels."""

    def __init__(self, model, lr=0.1):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def train_step(self, smashed, y):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(smashed), y)
        loss.backward()
        self.opt.step()
        return loss.item(), smashed.grad


def make_models(seed=0):
    torch.manual_seed(seed)
    bottom = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
    top = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4))
    return bottom, top
