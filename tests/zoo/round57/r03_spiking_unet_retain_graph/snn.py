"""Tiny multi-step spiking network: integrate-and-fire neurons that keep their
membrane potential `v` as module state between calls (like spikingjelly's IFNode)."""
import math

import torch
import torch.nn as nn


class ATanSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x >= 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out / (1 + (math.pi * x) ** 2)


class IFNode(nn.Module):
    def __init__(self, v_threshold=1.0):
        super().__init__()
        self.v_threshold = v_threshold
        self.v = 0.0

    def forward(self, x_seq):
        spikes = []
        for x in x_seq:
            self.v = self.v + x
            spike = ATanSpike.apply(self.v - self.v_threshold)
            self.v = self.v * (1.0 - spike)
            spikes.append(spike)
        return torch.stack(spikes)

    def reset(self):
        self.v = 0.0


class SpikingNet(nn.Module):
    def __init__(self, n_in=12, n_hidden=16, n_out=2, T=4):
        super().__init__()
        self.T = T
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.sn1 = IFNode()
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.sn2 = IFNode(v_threshold=0.5)

    def forward(self, x):
        x_seq = x.unsqueeze(0).repeat(self.T, 1, 1)
        h = self.sn1(self.fc1(x_seq))
        out = self.sn2(self.fc2(h))
        return out.mean(0) * 4.0


def reset_net(net):
    for m in net.modules():
        if hasattr(m, "reset"):
            m.reset()
