import torch
import torch.nn as nn
import torch.nn.functional as F


def ternary_weight(w, eps=1e-5):
    scale = 1.0 / w.abs().mean().clamp(min=eps)
    return (w * scale).round().clamp(-1, 1) / scale


def int8_activation(x, eps=1e-5):
    scale = 127.0 / x.abs().max(dim=-1, keepdim=True).values.clamp(min=eps)
    return (x * scale).round().clamp(-128, 127) / scale


class BitLinear(nn.Linear):
    """Linear layer with fake-quantized weights and activations (QAT)."""

    def forward(self, x):
        x = F.layer_norm(x, x.shape[-1:])
        # straight-through: forward sees the quantized values, backward
        # sees the identity, so the float shadow weights keep training
        x_q = x + (int8_activation(x) - x).detach()
        w_q = self.weight + (ternary_weight(self.weight) - self.weight).detach()
        return F.linear(x_q, w_q, self.bias)
