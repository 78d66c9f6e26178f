"""Style-agnostic network (SagNet) at toy scale: shared stem, content head and style head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def randomize(x, what, eps=1e-5):
    """Swap either the style (channel mean/std) or the content between samples of the batch."""
    b = x.size(0)
    mean = x.mean(-1, keepdim=True)
    std = (x.var(-1, keepdim=True) + eps).sqrt()
    normed = (x - mean) / std
    perm = torch.randperm(b)
    if what == "style":
        alpha = torch.rand(b, 1, 1)
        mean = alpha * mean + (1 - alpha) * mean[perm]
        std = alpha * std + (1 - alpha) * std[perm]
    else:
        normed = normed[perm]
    return normed * std + mean


class SagNet(nn.Module):
    def __init__(self, in_ch=3, ch=16, n_cls=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(in_ch, ch, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(ch, ch, 3, padding=1), nn.ReLU())
        self.content_net = nn.Sequential(nn.Conv1d(ch, ch, 3, padding=1), nn.ReLU())
        self.content_fc = nn.Linear(ch, n_cls)
        self.style_net = nn.Sequential(nn.Conv1d(ch, ch, 3, padding=1), nn.ReLU())
        self.style_fc = nn.Linear(ch, n_cls)

    def adv_params(self):
        return self.stem.parameters()

    def style_params(self):
        return list(self.style_net.parameters()) + list(self.style_fc.parameters())

    def forward(self, x):
        feat = self.stem(x)
        y = self.content_fc(self.content_net(randomize(feat, "style")).mean(-1))
        y_style = self.style_fc(self.style_net(randomize(feat, "content")).mean(-1))
        return y, y_style


class AdvLoss(nn.Module):
    """Push the style head towards a uniform prediction (the stem should fool it)."""

    def forward(self, logits):
        return -F.log_softmax(logits, 1).mean(1).mean()
