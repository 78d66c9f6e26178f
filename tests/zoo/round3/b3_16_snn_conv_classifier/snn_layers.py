"""Leaky integrate-and-fire layers with persistent membrane state (snnTorch style)."""
import torch
import torch.nn as nn


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, slope):
        ctx.save_for_backward(mem)
        ctx.slope = slope
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        return grad_output / (ctx.slope * mem.abs() + 1.0) ** 2, None


class Leaky(nn.Module):
    """Membrane potential is kept between calls until reset_mem() is called."""

    def __init__(self, beta=0.9, threshold=1.0, slope=25.0):
        super().__init__()
        self.beta, self.threshold, self.slope = beta, threshold, slope
        self.mem = None

    def reset_mem(self):
        self.mem = None

    def forward(self, current):
        if self.mem is None:
            self.mem = torch.zeros_like(current)
        reset = (self.mem > self.threshold).float()
        self.mem = self.beta * self.mem + current - reset * self.threshold
        spk = FastSigmoidSpike.apply(self.mem - self.threshold, self.slope)
        return spk, self.mem


class SpikingClassifier(nn.Module):
    def __init__(self, n_in=20, n_out=4, num_steps=5):
        super().__init__()
        self.num_steps = num_steps
        self.fc = nn.Linear(n_in, n_out)
        self.lif = Leaky()

    def forward(self, x):
        cur = self.fc(x)
        spk_rec, mem_rec = [], []
        for _ in range(self.num_steps):
            spk, mem = self.lif(cur)
            spk_rec.append(spk)
            mem_rec.append(mem)
        return torch.stack(spk_rec), torch.stack(mem_rec)
