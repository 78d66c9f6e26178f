"""
expect: GL001 quant_forward.py:32
dynamic: confirm
source: https://github.com/vllm-project/compressed-tensors/pull/8

A small quantization-aware-training setup in the style of compressed-tensors: the second Linear of a
two-layer MLP is wrapped so that its input activation is fake-quantized (quantize -> dequantize) before
the matmul. The pull request decorated quantize, dequantize and fake_quantize with @torch.no_grad(),
reasoning that Q/DQ needs no gradient. But the fake-quantized activation is then trained through: it is
produced in a no-grad region, so it carries no history and the loss cannot reach the first Linear, which
the optimizer holds and is meant to be trained. The asserts show the first layer's weight.grad stays None
and its weights never move, while the second layer still trains; a straight-through-estimator version of
the same quantizer lets the first layer receive a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from quant_forward import attach_input_qparams, fake_quantize, wrap_forward_quantized


def build_model():
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    attach_input_qparams(model[2], scale=0.05, zero_point=0.0)
    return model


def train_steps(model, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(1)
    for _ in range(steps):
        x = torch.randn(32, 16, generator=g)
        y = torch.randint(0, 4, (32,), generator=g)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return loss


torch.manual_seed(0)
torch.set_num_threads(1)

model = build_model()
wrap_forward_quantized(model[2])
first_before = model[0].weight.detach().clone()
last_before = model[2].weight.detach().clone()
train_steps(model)

assert model[0].weight.grad is None, "the layer before the fake-quantized input got a gradient"
assert torch.equal(model[0].weight, first_before), "first layer moved"
assert model[2].weight.grad is not None and not torch.equal(model[2].weight, last_before)

# Intended QAT: straight-through estimator, the rounding is invisible to autograd but the path stays.
torch.manual_seed(0)
ste_model = build_model()
layer = ste_model[2]
plain_forward = layer.forward
layer.forward = lambda x: plain_forward(
    x + (fake_quantize(x, layer.input_scale, layer.input_zero_point) - x).detach()
)
ste_before = ste_model[0].weight.detach().clone()
train_steps(ste_model)
assert ste_model[0].weight.grad is not None and ste_model[0].weight.grad.abs().sum() > 0
assert not torch.equal(ste_model[0].weight, ste_before)

print("no_grad fake-quant: first layer grad =", model[0].weight.grad)
print("STE fake-quant: first layer grad norm = %.4f" % ste_model[0].weight.grad.norm().item())
