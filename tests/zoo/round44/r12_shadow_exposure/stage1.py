"""Stage-1 trainer: a small CNN predicts six exposure parameters for the shadow region."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from exposure import exposure_rgb


class ParamNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(8, 6)
        nn.init.zeros_(self.head.weight)
        with torch.no_grad():
            self.head.bias.copy_(torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 0.0]))

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))


def train_param_step(param_net, optimizer, inp, gt, mask):
    optimizer.zero_grad()
    out_p = param_net(inp)
    transformed = []
    for j in range(inp.size(0)):
        p = out_p[j]
        img = exposure_rgb(inp[j].cpu().numpy(), p[0].item(), p[1].item(), p[2].item(),
                           p[3].item(), p[4].item(), p[5].item())
        transformed.append(img)
    transformed = np.array(transformed)
    transformed = torch.tensor(transformed, device=inp.device, dtype=inp.dtype)
    loss_p = F.mse_loss(transformed * mask, gt * mask)
    loss_p.requires_grad = True
    loss_p.backward()
    optimizer.step()
    return loss_p.item()
