"""Physics-informed losses through a frozen TeV decomposition network (PID-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TeVNet(nn.Module):
    """Decomposes an infrared image into temperature T, emissivity e and vegetation/texture V."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.heads = nn.Conv2d(8, 3, 1)

    def forward(self, ir):
        t, e, v = self.heads(self.body(ir)).chunk(3, dim=1)
        return torch.sigmoid(t), torch.sigmoid(e), torch.tanh(v)


def load_frozen_tevnet():
    net = TeVNet()
    net.eval()
    for p in net.parameters():
        p.requires_grad = False                      # TeVNet's own gradient is not needed
    return net


def get_loss_tev(tevnet, pred_ir, gt_ir):
    with torch.no_grad():
        t_gt, e_gt, v_gt = tevnet(gt_ir)              # targets: constants, no graph needed
    t_pr, e_pr, v_pr = tevnet(pred_ir)                # prediction side stays on the graph
    return F.l1_loss(t_pr, t_gt) + F.l1_loss(e_pr, e_gt) + F.l1_loss(v_pr, v_gt)


def get_loss_rec(tevnet, pred_ir):
    t, e, v = tevnet(pred_ir)
    return F.l1_loss(e * t + v, pred_ir)              # simplified radiation re-synthesis
