"""
expect: GL002 35
dynamic: confirm
source: kinds check 22, kind 2 (written for this check)

A keyword-spotting model adds a NumPy "frame energy smoothness" penalty computed from
its own outputs via .detach().cpu().numpy(); the number is a constant to autograd.
The asserts show the gradient is identical with the penalty weight 0 and 1.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameClassifier(nn.Module):
    def __init__(self, n_mels=20, n_cls=4):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, 16, 3, padding=1)
        self.out = nn.Conv1d(16, n_cls, 1)

    def forward(self, mel):
        return self.out(torch.relu(self.conv(mel)))


def smoothness_np(frame_logits):
    arr = frame_logits.detach().cpu().numpy()
    return float(np.mean(np.abs(np.diff(arr, axis=-1))))


def kws_loss(model, mel, labels, smooth_w):
    frame_logits = model(mel)
    ce = F.cross_entropy(frame_logits.mean(-1), labels)
    jitter = smoothness_np(frame_logits)
    loss = ce + smooth_w * jitter
    return loss


torch.manual_seed(2)
mel = torch.randn(8, 20, 30)
labels = torch.randint(0, 4, (8,))
grads = []
for w in (0.0, 1.0):
    torch.manual_seed(3)
    m = FrameClassifier()
    kws_loss(m, mel, labels, w).backward()
    grads.append(torch.cat([p.grad.flatten() for p in m.parameters()]))
assert torch.allclose(grads[0], grads[1]), "penalty should not change the gradient"
print("ok: numpy penalty contributes no gradient")
