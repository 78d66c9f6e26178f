"""
expect: GL002 spectra_net.py:17
dynamic: confirm
source: kinds check 52, kind 1

A spectrum classifier whose forward sends the encoder output through NumPy
(cumulative sum + max-normalisation) and feeds the head a torch.from_numpy copy.
One optimizer over model.parameters() trains only the head: the encoder weights
never receive a gradient, unlike a torch-native cumsum version.
"""
import torch
import torch.nn.functional as F
from spectra_net import SpectraNet

torch.manual_seed(0)
model = SpectraNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(32, 64)
y = torch.randint(0, 3, (32,))
enc0 = model.encoder[0].weight.detach().clone()
for _ in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
assert model.encoder[0].weight.grad is None
assert torch.equal(enc0, model.encoder[0].weight)

# intended torch-native version: encoder does get a gradient
h = model.encoder(x)
c = torch.cumsum(h, dim=1)
c = c / (c.abs().amax(dim=1, keepdim=True) + 1e-6)
F.cross_entropy(model.head(c), y).backward()
assert model.encoder[0].weight.grad is not None
assert model.encoder[0].weight.grad.abs().sum() > 0
print("ok: encoder frozen by numpy round trip")
