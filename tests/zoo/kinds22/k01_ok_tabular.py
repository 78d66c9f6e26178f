"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 1 (written for this check)

A tabular regressor with an auxiliary reconstruction head: float() only feeds the
log and a loss-weight schedule, while the tensor aux term is what joins the loss.
The asserts show every parameter, the reconstruction head included, gets a nonzero grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabNetLite(nn.Module):
    def __init__(self, d_in=10):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 24), nn.ReLU())
        self.head = nn.Linear(24, 1)
        self.recon = nn.Linear(24, d_in)

    def forward(self, x):
        z = self.enc(x)
        return self.head(z).squeeze(-1), self.recon(z)


class Trainer:
    def __init__(self, model, aux_weight=0.3):
        self.model = model
        self.aux_weight = aux_weight
        self.history = []

    def step(self, x, y):
        pred, rec = self.model(x)
        main = F.smooth_l1_loss(pred, y)
        aux = F.mse_loss(rec, x)
        aux_value = float(aux)
        self.history.append((float(main), aux_value))
        if aux_value < 0.05:
            self.aux_weight *= 0.5
        loss = main + self.aux_weight * aux
        loss.backward()
        return loss


torch.manual_seed(1)
x, y = torch.randn(32, 10), torch.randn(32)
net = TabNetLite()
Trainer(net).step(x, y)
for name, p in net.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
