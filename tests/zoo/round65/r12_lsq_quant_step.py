"""
expect: none
dynamic: dismiss
source: https://github.com/hustzxd/LSQuantization/blob/master/lsq.py

Quantization-aware training with a learned step size (LSQ). The repository's
quantized Linear/Conv layers build the fake-quantized weight with two detach
tricks: `grad_scale` returns `y.detach() - y_grad.detach() + y_grad` so the step
size keeps its value in the forward pass but gets a scaled gradient, and
`round_pass` returns `round(x).detach() - x.detach() + x`, a straight-through
estimator. The step size is also initialised in place through `alpha.data.copy_`
on the first training batch. All three look like cut paths (`.detach()`, `.data`),
but they are intended: the detached parts only carry forward values and the
gradient flows through `y_grad`. The asserts show the step size and the weights
both receive gradient, that this gradient equals the hand-written LSQ backward of
an explicit autograd.Function, and that training the quantized layer lowers the
loss.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def grad_scale(x, scale):
    y = x
    y_grad = x * scale
    return y.detach() - y_grad.detach() + y_grad


def round_pass(x):
    y = x.round()
    y_grad = x
    return y.detach() - y_grad.detach() + y_grad


class LinearLSQ(nn.Linear):
    def __init__(self, in_features, out_features, nbits=4):
        super().__init__(in_features, out_features)
        self.nbits = nbits
        self.alpha = nn.Parameter(torch.ones(1))
        self.register_buffer("init_state", torch.zeros(1))

    def quant_bounds(self):
        return -2 ** (self.nbits - 1), 2 ** (self.nbits - 1) - 1

    def forward(self, x):
        Qn, Qp = self.quant_bounds()
        if self.training and self.init_state == 0:
            self.alpha.data.copy_(2 * self.weight.abs().mean() / math.sqrt(Qp))
            self.init_state.fill_(1)
        g = 1.0 / math.sqrt(self.weight.numel() * Qp)
        alpha = grad_scale(self.alpha, g)
        w_q = round_pass((self.weight / alpha).clamp(Qn, Qp)) * alpha
        return F.linear(x, w_q, self.bias)


class LSQFunction(torch.autograd.Function):
    """Reference: the same quantizer with an explicit backward (paper eq. 3)."""

    @staticmethod
    def forward(ctx, weight, alpha, g, Qn, Qp):
        ctx.save_for_backward(weight, alpha)
        ctx.other = g, Qn, Qp
        return (weight / alpha).round().clamp(Qn, Qp) * alpha

    @staticmethod
    def backward(ctx, grad_weight):
        weight, alpha = ctx.saved_tensors
        g, Qn, Qp = ctx.other
        q_w = weight / alpha
        small = (q_w < Qn).float()
        big = (q_w > Qp).float()
        middle = 1.0 - small - big
        grad_alpha = ((small * Qn + big * Qp + middle * (-q_w + q_w.round())) * grad_weight * g).sum().unsqueeze(0)
        return middle * grad_weight, grad_alpha, None, None, None


x = torch.randn(256, 16)
teacher = torch.randn(16, 4)
y = x @ teacher

layer = LinearLSQ(16, 4)
out = layer(x)                       # first training step initialises alpha through .data
assert layer.init_state.item() == 1
loss = F.mse_loss(out, y)
loss.backward()
assert layer.alpha.grad is not None and layer.alpha.grad.abs().item() > 0
assert layer.weight.grad is not None and layer.weight.grad.abs().sum() > 0

# compare with the explicit-backward reference on identical values
w_ref = layer.weight.detach().clone().requires_grad_(True)
a_ref = layer.alpha.detach().clone().requires_grad_(True)
Qn, Qp = layer.quant_bounds()
g = 1.0 / math.sqrt(w_ref.numel() * Qp)
ref_out = F.linear(x, LSQFunction.apply(w_ref, a_ref, g, Qn, Qp), layer.bias.detach())
F.mse_loss(ref_out, y).backward()
assert torch.allclose(layer.alpha.grad, a_ref.grad, rtol=1e-4, atol=1e-7)
assert torch.allclose(layer.weight.grad, w_ref.grad, rtol=1e-4, atol=1e-7)

# quantization-aware training reduces the loss and moves the step size
opt = torch.optim.Adam(layer.parameters(), lr=1e-2)
alpha0 = layer.alpha.item()
first = None
for step in range(300):
    opt.zero_grad()
    l = F.mse_loss(layer(x), y)
    l.backward()
    opt.step()
    first = l.item() if first is None else first
assert l.item() < 0.3 * first, (first, l.item())
assert abs(layer.alpha.item() - alpha0) > 1e-4
print(f"loss {first:.3f} -> {l.item():.3f}, alpha {alpha0:.4f} -> {layer.alpha.item():.4f}")
print("OK: detach-based STE / grad scaling carries gradient to weights and step size")
