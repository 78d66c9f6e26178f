import torch
import torch.nn as nn


class ClippedFakeQuant(torch.autograd.Function):
    """Symmetric fake quantisation with a clipped straight-through estimator."""

    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        ctx.limit = scale * qmax
        ctx.save_for_backward(x)
        x.clamp_(-ctx.limit, ctx.limit)
        return torch.round(x / scale) * scale

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        inside = (x.abs() <= ctx.limit).to(grad_out.dtype)
        return grad_out * inside, None, None


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, act_scale=0.05, bits=4):
        super().__init__(in_features, out_features)
        self.act_scale, self.bits = act_scale, bits

    def forward(self, x):
        return ClippedFakeQuant.apply(super().forward(x), self.act_scale, self.bits)
