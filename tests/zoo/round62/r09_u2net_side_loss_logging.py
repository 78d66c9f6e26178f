"""
expect: none
dynamic: dismiss
source: https://github.com/xuebinqin/U-2-Net/blob/cb9c2273594c158c604e2fc08f0954b866dadf9c/u2net_train.py

U-2-Net trains a salient-object-detection network with deep supervision: a BCE loss on the fused map plus
one on every side output, summed into a single loss. The training script is full of patterns that look
like detached training: inputs and labels wrapped in Variable(..., requires_grad=False), per-stage losses
read through loss.data.item() for the log line, running sums built from loss.data.item(), and del of the
outputs and losses after each step. None of it touches what is trained: backward is called on the summed
loss, which keeps its full history; .data.item() only reads numbers for logging, and the inputs never needed
gradients. This program rebuilds that loop with a tiny encoder-decoder that has three side outputs and a
fusion layer. The asserts show that every side head and the fusion layer get non-zero gradients, that the
logged numbers match the losses, and that the fused-map loss falls during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


class TinySOD(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU())
        self.enc3 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU())
        self.side1 = nn.Conv2d(8, 1, 3, padding=1)
        self.side2 = nn.Conv2d(16, 1, 3, padding=1)
        self.side3 = nn.Conv2d(16, 1, 3, padding=1)
        self.outconv = nn.Conv2d(3, 1, 1)

    def forward(self, x):
        h1 = self.enc1(x)
        h2 = self.enc2(h1)
        h3 = self.enc3(h2)
        size = x.shape[-2:]
        d1 = self.side1(h1)
        d2 = F.interpolate(self.side2(h2), size=size, mode="bilinear", align_corners=False)
        d3 = F.interpolate(self.side3(h3), size=size, mode="bilinear", align_corners=False)
        d0 = self.outconv(torch.cat([d1, d2, d3], dim=1))
        return torch.sigmoid(d0), torch.sigmoid(d1), torch.sigmoid(d2), torch.sigmoid(d3)


bce_loss = nn.BCELoss(reduction="mean")
log_lines = []


def muti_bce_loss_fusion(d0, d1, d2, d3, labels_v):
    loss0 = bce_loss(d0, labels_v)
    loss1 = bce_loss(d1, labels_v)
    loss2 = bce_loss(d2, labels_v)
    loss3 = bce_loss(d3, labels_v)
    loss = loss0 + loss1 + loss2 + loss3
    log_lines.append((loss0.data.item(), loss1.data.item(), loss2.data.item(), loss3.data.item()))
    return loss0, loss


images = torch.rand(6, 3, 16, 16)
labels = (images.mean(1, keepdim=True) > 0.5).float()

net = TinySOD()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
running_loss, running_tar_loss, tar_history = 0.0, 0.0, []
for ite in range(60):
    inputs_v = Variable(images, requires_grad=False)
    labels_v = Variable(labels, requires_grad=False)
    optimizer.zero_grad()
    d0, d1, d2, d3 = net(inputs_v)
    loss2, loss = muti_bce_loss_fusion(d0, d1, d2, d3, labels_v)
    loss.backward()
    if ite == 0:
        for head in (net.side1, net.side2, net.side3, net.outconv, net.enc1[0]):
            assert head.weight.grad is not None and head.weight.grad.abs().sum() > 0
        assert abs(sum(log_lines[0]) - loss.item()) < 1e-5
    optimizer.step()
    running_loss += loss.data.item()
    running_tar_loss += loss2.data.item()
    tar_history.append(loss2.data.item())
    del d0, d1, d2, d3, loss2, loss

assert len(log_lines) == 60
assert tar_history[-1] < 0.5 * tar_history[0], (tar_history[0], tar_history[-1])
print("fused-map loss %.3f -> %.3f (mean total loss %.3f)" % (tar_history[0], tar_history[-1], running_loss / 60))
