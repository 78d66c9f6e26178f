"""Fake-quantization helpers and a forward wrapper that simulates int8 activations during QAT."""
import torch
from torch import nn


@torch.no_grad()
def quantize(x, scale, zero_point, q_max):
    return torch.clamp(torch.round(x / scale + zero_point), 0, q_max)


@torch.no_grad()
def dequantize(x_q, scale, zero_point):
    return (x_q - zero_point) * scale


@torch.no_grad()
def fake_quantize(x, scale, zero_point, num_bits=8):
    q_max = torch.tensor(2.0 ** num_bits - 1.0)
    return dequantize(quantize(x, scale, zero_point, q_max), scale, zero_point)


def attach_input_qparams(module: nn.Module, scale: float, zero_point: float) -> None:
    module.register_buffer("input_scale", torch.tensor(scale))
    module.register_buffer("input_zero_point", torch.tensor(zero_point))


def wrap_forward_quantized(module: nn.Module) -> nn.Module:
    """Replace module.forward so that its input activation is fake-quantized first."""
    original_forward = module.forward

    def wrapped_forward(x):
        x_q = fake_quantize(x, module.input_scale, module.input_zero_point)
        return original_forward(x_q)

    module.forward = wrapped_forward
    return module
