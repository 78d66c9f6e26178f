"""expect: none
dynamic: none
source: https://github.com/umautobots/bidirection-trajectory-predicter/issues/4

The BiTraP trajectory predictor (following Trajectron++) ramps the KL weight of its CVAE
loss up after every batch step, to a maximum of 100, which a reader questioned.  The
weight is a plain Python number owned by a scheduler and multiplied in place each step;
it is a hyperparameter, not part of any graph, and both encoder and decoder train.
"""
import torch
import torch.nn as nn


class ParamScheduler:
    def __init__(self, kld_weight=1e-2, growth=1.5, max_weight=100.0):
        self.kld_weight = kld_weight
        self.growth = growth
        self.max_weight = max_weight

    def step(self):
        self.kld_weight *= self.growth
        self.kld_weight = min(self.kld_weight, self.max_weight)


class TrajectoryCVAE(nn.Module):
    def __init__(self, obs_dim=16, fut_dim=24, z_dim=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim + fut_dim, 32), nn.ReLU(), nn.Linear(32, 2 * z_dim))
        self.decoder = nn.Sequential(nn.Linear(obs_dim + z_dim, 32), nn.ReLU(), nn.Linear(32, fut_dim))

    def forward(self, obs, future):
        mu, logvar = self.encoder(torch.cat([obs, future], -1)).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        pred = self.decoder(torch.cat([obs, z], -1))
        kld = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1))
        return pred, kld


def train(model, batches, scheduler, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for obs, future in batches:
        pred, kld = model(obs, future)
        recon = (pred - future).pow(2).sum(-1).mean()
        loss = recon + scheduler.kld_weight * kld
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TrajectoryCVAE()
    scheduler = ParamScheduler()
    batches = [(torch.randn(8, 16), torch.randn(8, 24)) for _ in range(5)]
    train(model, batches, scheduler)
    assert scheduler.kld_weight > 1e-2
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    print(f"kld weight now {scheduler.kld_weight:.3f}; encoder and decoder both trained")
