"""
expect: GL001 probes.py:15
dynamic: confirm
source: https://github.com/myscience/open-genie/issues/6

The issue: the video tokenizer's PerceptualLoss collects real and fake features through a
RecordingProbe forward hook, and the probe stores output.detach(), so the perceptual term cannot
send gradient back to the model; removing the detach made gradient flow. This program keeps the
probe in its own module and trains a small decoder with pixel loss + perceptual loss. The asserts
show the perceptual term adds a number but no gradient: the decoder's gradient with and without
that term is identical, and the perceptual loss alone has no grad_fn; with a graph-keeping probe
the gradients differ.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from probes import RecordingProbe, RecordingProbeRaw

torch.manual_seed(0)


class FeatureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.block2 = nn.Sequential(nn.Linear(32, 32), nn.ReLU())

    def forward(self, x):
        return self.block2(self.block1(x))


class PerceptualLoss(nn.Module):
    def __init__(self, probe_cls):
        super().__init__()
        self.net = FeatureNet()
        for p in self.net.parameters():
            p.requires_grad_(False)
        self.probe = probe_cls(self.net, ["block1", "block2"])

    def forward(self, fake, real):
        self.net(real)
        real_feats = self.probe.pop()
        self.net(fake)
        fake_feats = self.probe.pop()
        return sum(F.mse_loss(fake_feats[k], real_feats[k]) for k in real_feats)


def decoder_grad(probe_cls, use_perceptual):
    torch.manual_seed(1)
    decoder = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))
    perc = PerceptualLoss(probe_cls)
    z, real = torch.randn(4, 8), torch.randn(4, 16)
    fake = decoder(z)
    p_loss = perc(fake, real)
    loss = F.l1_loss(fake, real) + (p_loss if use_perceptual else 0.0)
    loss.backward()
    return decoder[0].weight.grad.clone(), p_loss


g_with, p_loss = decoder_grad(RecordingProbe, True)
g_without, _ = decoder_grad(RecordingProbe, False)
assert p_loss.grad_fn is None and p_loss.item() > 0
assert torch.equal(g_with, g_without), "perceptual term contributed no gradient"

g_keep, p_keep = decoder_grad(RecordingProbeRaw, True)
assert p_keep.grad_fn is not None
assert not torch.allclose(g_keep, g_without)
print("ok: detached probe features make the perceptual loss a constant")
