import torch
import torch.nn as nn
import torch.nn.functional as F


class Nets(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 16))
        self.head = nn.Linear(16, 4)
        self.disc = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))


class SynRealTrainer:
    """Source = synthetic images with labels, target = real images without labels."""

    def __init__(self, nets, adv_weight=1.0):
        self.n = nets
        self.adv_weight = adv_weight
        self.opt_bh = torch.optim.SGD(list(nets.base.parameters()) + list(nets.head.parameters()), lr=0.05)
        self.opt_d = torch.optim.SGD(nets.disc.parameters(), lr=0.05)

    def features(self, x):
        return self.n.base(x)

    def step_d(self, x_syn, x_real):
        f_syn = self.features(x_syn).detach()
        f_real = self.features(x_real).detach()
        d_syn, d_real = self.n.disc(f_syn), self.n.disc(f_real)
        loss = F.binary_cross_entropy_with_logits(d_syn, torch.zeros_like(d_syn)) + \
            F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
        self.opt_d.zero_grad()
        loss.backward()
        self.opt_d.step()

    def bh_loss(self, x_syn, y_syn):
        f_syn = self.features(x_syn)
        task = F.cross_entropy(self.n.head(f_syn), y_syn)
        # fool D: make synthetic features look real
        d_syn = self.n.disc(f_syn.detach())
        adv = F.binary_cross_entropy_with_logits(d_syn, torch.ones_like(d_syn))
        return task + self.adv_weight * adv, adv

    def step_bh(self, x_syn, y_syn):
        loss, adv = self.bh_loss(x_syn, y_syn)
        self.opt_bh.zero_grad()
        loss.backward()
        self.opt_bh.step()
        return adv
