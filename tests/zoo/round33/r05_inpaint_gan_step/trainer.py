import torch
import torch.nn as nn


class InpaintTrainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.netG = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ELU(), nn.Conv2d(8, 3, 3, padding=1))
        self.netD = nn.Sequential(nn.Conv2d(3, 4, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                  nn.Flatten(), nn.Linear(4 * 8 * 8, 1))

    def forward(self, x, mask):
        inp = torch.cat([x * (1 - mask), mask], dim=1)
        out = self.netG(inp)
        completed = out * mask + x * (1 - mask)
        real_pred = self.netD(x)
        fake_pred_d = self.netD(completed.detach())
        losses = {}
        losses["d"] = torch.relu(1 - real_pred).mean() + torch.relu(1 + fake_pred_d).mean()
        fake_pred_g = self.netD(completed)
        losses["g"] = -fake_pred_g.mean() + (out - x).abs().mean()
        return losses


def train_step(trainer, opt_g, opt_d, x, mask):
    losses = trainer(x, mask)
    opt_d.zero_grad()
    losses["d"].backward()
    opt_d.step()
    opt_g.zero_grad()
    losses["g"].backward()
    opt_g.step()
    return losses


def train_step_fixed(trainer, opt_g, opt_d, x, mask):
    losses = trainer(x, mask)
    opt_d.zero_grad()
    opt_g.zero_grad()
    losses["g"].backward(retain_graph=True)
    g_grads = [p.grad.clone() for p in trainer.netG.parameters()]
    opt_d.zero_grad()
    losses["d"].backward()
    opt_d.step()
    for p, g in zip(trainer.netG.parameters(), g_grads):
        p.grad = g
    opt_g.step()
    return losses
