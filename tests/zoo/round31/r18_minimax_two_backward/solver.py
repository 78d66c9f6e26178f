import torch
import torch.nn as nn
import torch.nn.functional as F


class AssocNet(nn.Module):
    def __init__(self, d=8, L=12):
        super().__init__()
        self.q = nn.Linear(d, 16)
        self.k = nn.Linear(d, 16)
        self.sigma = nn.Linear(d, 1)
        self.rec = nn.Linear(d, d)
        self.L = L

    def forward(self, x):
        series = torch.softmax(self.q(x) @ self.k(x).transpose(1, 2) / 4.0, -1)
        idx = torch.arange(self.L, dtype=torch.float)
        dist = (idx[:, None] - idx[None, :]) ** 2
        s = torch.sigmoid(self.sigma(x)) * 3 + 0.1
        prior = torch.softmax(-dist / (2 * s ** 2), -1)
        return self.rec(series @ x), series, prior


def kl(p, q):
    return (p * (torch.log(p + 1e-6) - torch.log(q + 1e-6))).sum(-1).mean()


class Solver:
    def __init__(self, model, k=3.0, step_between=True):
        self.model, self.k, self.step_between = model, k, step_between
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    def train_step(self, x):
        self.optimizer.zero_grad()
        out, series, prior = self.model(x)
        rec = F.mse_loss(out, x)
        series_loss = kl(series, prior.detach()) + kl(prior.detach(), series)
        prior_loss = kl(prior, series.detach()) + kl(series.detach(), prior)
        loss1 = rec - self.k * series_loss
        loss2 = rec + self.k * prior_loss
        # minimax: maximise series discrepancy, minimise prior discrepancy
        loss1.backward(retain_graph=True)
        if self.step_between:
            self.optimizer.step()
        loss2.backward()
        self.optimizer.step()
        return loss1.item(), loss2.item()
