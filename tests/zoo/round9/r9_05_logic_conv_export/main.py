"""
expect: GL002 layers.py:38
dynamic: confirm
source: https://github.com/ligerlac/torchlogix/pull/17

A small differentiable logic-gate network (two LogicConv2d layers and a linear readout)
is trained on toy 8x8 images with the layers built in "export mode", so that training and
the exported boolean circuit share one code path. In that path LogicConv2d extracts its
patches in NumPy and rebuilds them with `torch.from_numpy`, so each layer's input is a
fresh tensor with no history: the second layer and the readout still train, but nothing
reaches the first layer's gate parameters. The program checks both paths give the same
forward values, then asserts the first layer never gets a gradient or moves while the
later layers do, and that the torch unfold path trains all layers.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import LogicConv2d

torch.manual_seed(0)


class LogicNet(nn.Module):
    def __init__(self, export_mode):
        super().__init__()
        self.conv1 = LogicConv2d(1, 8, export_mode=export_mode, seed=1)
        self.conv2 = LogicConv2d(8, 8, export_mode=export_mode, seed=2)
        self.readout = nn.Linear(8, 2)

    def forward(self, x):
        x = self.conv2(self.conv1(x))
        return self.readout(x.mean(dim=(2, 3)))


def make_data(n=64):
    imgs = (torch.rand(n, 1, 8, 8) > 0.5).float()
    labels = (imgs[:, :, :4].sum(dim=(1, 2, 3)) > imgs[:, :, 4:].sum(dim=(1, 2, 3))).long()
    return imgs, labels


def train(export_mode, steps=6):
    torch.manual_seed(3)
    model = LogicNet(export_mode)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    first_layer_grads = []
    for _ in range(steps):
        x, y = make_data()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        first_layer_grads.append(model.conv1.gate_logits.grad)
        opt.step()
    moved = {n: not torch.equal(before[n], p) for n, p in model.named_parameters()}
    return model, first_layer_grads, moved


x, _ = make_data(4)
torch.manual_seed(5)
net_export = LogicNet(True)
torch.manual_seed(5)
net_torch = LogicNet(False)
assert torch.allclose(net_export(x), net_torch(x))

_, grads, moved = train(export_mode=True)
assert all(g is None for g in grads)
assert not moved["conv1.gate_logits"]
assert moved["conv2.gate_logits"] and moved["readout.weight"]

_, grads, moved = train(export_mode=False)
assert all(g is not None for g in grads) and all(moved.values())

print("OK")
