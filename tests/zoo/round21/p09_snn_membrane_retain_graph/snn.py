"""Minimal spiking classifier in the style of spikingjelly-based models (QKFormer et al.)."""
import torch
import torch.nn as nn


class SurrogateSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(4.0 * x)
        return grad_out * 4.0 * s * (1 - s)


class LIFNode(nn.Module):
    """Leaky integrate-and-fire neuron; the membrane potential is kept between calls."""

    def __init__(self, tau=2.0, v_threshold=1.0):
        super().__init__()
        self.tau, self.v_threshold = tau, v_threshold
        self.v = 0.0

    def forward(self, x):
        self.v = self.v + (x - self.v) / self.tau
        spike = SurrogateSpike.apply(self.v - self.v_threshold)
        self.v = self.v * (1.0 - spike)                     # hard reset of fired neurons
        return spike

    def reset(self):
        self.v = 0.0


class PopulationSNN(nn.Module):
    """Trainable synaptic layer, LIF population, fixed population-coding readout."""

    def __init__(self, n_in=20, n_cls=4, per_class=8, T=4):
        super().__init__()
        self.T, self.n_cls, self.per_class = T, n_cls, per_class
        self.fc = nn.Linear(n_in, n_cls * per_class)
        self.lif = LIFNode()

    def forward(self, x):
        rate = sum(self.lif(self.fc(x)) for _ in range(self.T)) / self.T
        return rate.view(-1, self.n_cls, self.per_class).mean(dim=2)


def reset_net(net):
    for m in net.modules():
        if hasattr(m, "reset"):
            m.reset()
