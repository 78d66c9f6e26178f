"""Fake-float8 linear layer that keeps its weight scale in a module buffer (delayed-scaling layout)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

E4M3_MAX = 448.0


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


def amax_to_scale(amax):
    return E4M3_MAX / torch.clamp(amax, min=1e-12)


def tensor_to_scale(x):
    return amax_to_scale(torch.max(torch.abs(x)))


@torch.no_grad()
def tensor_to_scale_no_grad(x):
    return amax_to_scale(torch.max(torch.abs(x)))


def fake_cast(x, scale):
    return RoundSTE.apply(x * scale) / scale


class Float8Linear(nn.Linear):
    def __init__(self, in_features, out_features, scale_fn=tensor_to_scale, act_scale=64.0):
        super().__init__(in_features, out_features)
        self.scale_fn = scale_fn
        self.register_buffer("fp8_s_in", torch.tensor(act_scale))
        self.register_buffer("fp8_s_weight", torch.tensor(1.0))

    def forward(self, x):
        self.fp8_s_weight.fill_(self.scale_fn(self.weight))
        x_fp8 = fake_cast(x, self.fp8_s_in)
        w_fp8 = fake_cast(self.weight, self.fp8_s_weight)
        return F.linear(x_fp8, w_fp8, self.bias)
