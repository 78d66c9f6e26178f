"""
expect: none
dynamic: dismiss
source: https://github.com/eladhoffer/quantized.pytorch/issues/12

Quantization-aware training in the style of the quantized.pytorch modules the issue asks about:
the full-precision weight stays the trainable parameter and each forward pass fake-quantizes it
with a custom autograd function whose forward rounds a clone with in-place ops and whose backward
passes the gradient straight through. The quantization range is read with float(w.min()) and
float(w.max()), the activation quantizer keeps running min/max buffers updated in place from
input.detach(), and the layer never assigns the quantized tensor back to self.weight (the issue
reports that doing so costs accuracy). None of these cuts is meant to carry gradient: the ranges
and running statistics are constants of the quantizer, and the straight-through estimator carries
the loss gradient to the float weight. The asserts check that the float weight's gradient equals
the gradient with respect to the quantized weight, that the running buffers have no history, and
that the quantized network's training loss falls.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")


class UniformQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, num_bits, min_value, max_value):
        output = x.clone()
        qmax = 2.0 ** num_bits - 1.0
        scale = max((max_value - min_value) / qmax, 1e-8)
        zero_point = int(min(max(-min_value / scale, 0.0), qmax))
        output.div_(scale).add_(zero_point).clamp_(0.0, qmax).round_()
        output.add_(-zero_point).mul_(scale)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None, None, None


def quantize(x, num_bits, min_value, max_value):
    return UniformQuantize.apply(x, num_bits, min_value, max_value)


class QuantMeasure(nn.Module):
    def __init__(self, num_bits=8, momentum=0.1):
        super().__init__()
        self.num_bits = num_bits
        self.momentum = momentum
        self.register_buffer("running_min", torch.zeros(1))
        self.register_buffer("running_max", torch.zeros(1))

    def forward(self, x):
        if self.training:
            min_value = x.detach().view(x.size(0), -1).min(-1)[0].mean()
            max_value = x.detach().view(x.size(0), -1).max(-1)[0].mean()
            self.running_min.mul_(self.momentum).add_(min_value * (1 - self.momentum))
            self.running_max.mul_(self.momentum).add_(max_value * (1 - self.momentum))
        else:
            min_value, max_value = self.running_min, self.running_max
        return quantize(x, self.num_bits, float(min_value), float(max_value))


class QLinear(nn.Linear):
    def __init__(self, in_features, out_features, num_bits=4):
        super().__init__(in_features, out_features)
        self.num_bits = num_bits
        self.quantize_input = QuantMeasure(8)

    def forward(self, x):
        qx = self.quantize_input(x)
        qweight = quantize(self.weight, self.num_bits, float(self.weight.min()), float(self.weight.max()))
        return F.linear(qx, qweight, self.bias)


torch.manual_seed(1)
net = nn.Sequential(QLinear(10, 32), nn.ReLU(), QLinear(32, 3))
x, y = torch.randn(128, 10), torch.randint(0, 3, (128,))

# straight-through check on the first layer: d loss / d weight == d loss / d qweight
layer = net[0]
qx = layer.quantize_input(x)
qweight = quantize(layer.weight, layer.num_bits, float(layer.weight.min()), float(layer.weight.max()))
q_leaf = qweight.detach().requires_grad_(True)
out_q = net[2](net[1](F.linear(qx, q_leaf, layer.bias)))
g_q = torch.autograd.grad(F.cross_entropy(out_q, y), q_leaf)[0]
out_w = net[2](net[1](F.linear(qx, qweight, layer.bias)))
g_w = torch.autograd.grad(F.cross_entropy(out_w, y), layer.weight)[0]
assert torch.allclose(g_w, g_q)
assert g_w.abs().sum() > 0

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
losses = []
for _ in range(150):
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
buffers_plain = all(b.grad_fn is None and not b.requires_grad for b in net.buffers())
print(f"QAT loss {losses[0]:.3f} -> {losses[-1]:.3f}; running min/max without history: {buffers_plain}")
assert buffers_plain
assert losses[-1] < 0.6 * losses[0]
