"""
expect: none
dynamic: dismiss
source: https://github.com/kyegomez/BitNet/issues/51

The issue asks what the two `.detach()` calls in BitLinear are for. They are
the straight-through estimator of quantization-aware training: the forward
pass uses ternary weights and int8 activations, while the detached difference
makes the backward pass treat quantization as the identity, so the float
weights still get gradients. Nothing is cut. The asserts show the forward
output equals a linear layer on the quantized tensors, the weight gradient is
exactly the gradient of that linear layer passed straight through, and a few
steps of training lower the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from bitlinear import BitLinear, int8_activation, ternary_weight

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(BitLinear(16, 32), nn.ReLU(), BitLinear(32, 4))
x, y = torch.randn(64, 16), torch.randint(0, 4, (64,))

# forward value is the quantized computation
layer = model[0]
xn = F.layer_norm(x, (16,))
ref = F.linear(int8_activation(xn), ternary_weight(layer.weight), layer.bias)
assert torch.allclose(layer(x), ref, atol=1e-5)

# weight gradient passes straight through the quantizer
out = layer(x)
g_out = torch.randn_like(out)
(out * g_out).sum().backward()
assert torch.allclose(layer.weight.grad, g_out.t() @ int8_activation(xn), atol=1e-4)
assert layer.weight.grad.abs().sum() > 0
model.zero_grad()

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first = None
for step in range(30):
    loss = F.cross_entropy(model(x), y)
    first = loss.item() if first is None else first
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
assert loss.item() < first
print("ok: STE detaches are on purpose", first, "->", loss.item())
