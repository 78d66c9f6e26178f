"""Spiking actor: population encoder -> leaky integrate-and-fire layer -> population decoder."""
import torch
import torch.nn as nn


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem_shifted):
        ctx.save_for_backward(mem_shifted)
        return (mem_shifted > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (mem_shifted,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * mem_shifted.abs()) ** 2


class Leaky(nn.Module):
    """LIF neuron that keeps its membrane potential between calls (init_hidden style)."""

    def __init__(self, beta=0.9, threshold=1.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold
        self.mem = None

    def reset_hidden(self):
        self.mem = None

    def forward(self, current):
        if self.mem is None:
            self.mem = torch.zeros_like(current)
        self.mem = self.beta * self.mem + current
        spk = SpikeFn.apply(self.mem - self.threshold)
        self.mem = self.mem - spk.detach() * self.threshold
        return spk


class SpikingActor(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32, num_steps=4):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, hidden)
        self.lif = Leaky()
        self.decoder = nn.Linear(hidden, n_actions)
        self.num_steps = num_steps

    def forward(self, obs):
        cur = self.encoder(obs)
        rate = 0.0
        for _ in range(self.num_steps):
            rate = rate + self.lif(cur)
        return torch.log_softmax(self.decoder(rate / self.num_steps), dim=-1)
