"""Stateful multi-step spiking neurons (clock-driven, in the style of spikingjelly).
The membrane potential is kept on the module between calls, so the network must be reset
after every sample/batch with `reset_net`."""
import torch
import torch.nn as nn


class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0, alpha=4.0):
        super().__init__()
        self.tau, self.v_threshold, self.alpha = tau, v_threshold, alpha
        self.v = 0.0

    def forward(self, x_seq):                         # x_seq: (T, B, C)
        spikes = []
        for x in x_seq:
            self.v = self.v + (x - self.v) / self.tau
            s = torch.sigmoid(self.alpha * (self.v - self.v_threshold))
            self.v = self.v * (1.0 - s)               # soft reset after a spike
            spikes.append(s)
        return torch.stack(spikes)

    def reset(self):
        self.v = 0.0


def reset_net(net):
    for m in net.modules():
        if isinstance(m, LIFNode):
            m.reset()
