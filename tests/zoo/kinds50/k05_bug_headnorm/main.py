"""
expect: GL005 constraints.py:7
dynamic: confirm
source: kinds check 50, kind 3

Sensor-fault classifier: after the forward pass, the step damps two rows of the output
layer through `.data` via a helper that scales a narrow() view in place, then calls
backward. Backward uses the already-edited weight for the hidden-layer gradient, so the
first layer's gradient is silently wrong.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from constraints import damp_leading_rows

torch.manual_seed(4)
net = nn.Sequential(nn.Linear(8, 12), nn.Tanh(), nn.Linear(12, 4))
ref = copy.deepcopy(net)
readings = torch.randn(40, 8)
fault = torch.randint(0, 4, (40,))

logits = net(readings)
damp_leading_rows(net[2].weight.data)
loss = F.cross_entropy(logits, fault)
loss.backward()

# reference: the gradient for the forward that actually ran (original weights)
F.cross_entropy(ref(readings), fault).backward()
assert torch.allclose(net[2].weight.grad, ref[2].weight.grad)
assert not torch.allclose(net[0].weight.grad, ref[0].weight.grad, atol=1e-5), "first-layer grad should be wrong"
print("k05 ok: max first-layer grad error",
      (net[0].weight.grad - ref[0].weight.grad).abs().max().item())
