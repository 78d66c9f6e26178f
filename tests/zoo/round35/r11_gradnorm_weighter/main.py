"""
expect: none
dynamic: dismiss
source: https://github.com/AvivNavon/nash-mtl/issues/4

A user asked nash-mtl for GradNorm and a maintainer posted an untested
GradNorm weight method: ones-initialised task weights with requires_grad,
a first backward with retain_graph, per-task gradient norms on the last
shared layer, and a target built from loss ratios. The target is taken
out of the graph on purpose (the paper treats it as a constant), and the
graph is kept exactly once for the norm pass. The asserts show the task
weights move, stay normalised, and the shared trunk and both heads train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gradnorm import GradNormWeighter

torch.manual_seed(0)
torch.set_num_threads(1)


class TwoTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.last_shared = nn.Linear(16, 16)
        self.reg_head = nn.Linear(16, 1)
        self.cls_head = nn.Linear(16, 3)

    def forward(self, x):
        h = torch.relu(self.last_shared(self.trunk(x)))
        return self.reg_head(h).squeeze(-1), self.cls_head(h)


net = TwoTaskNet()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
weighter = GradNormWeighter(2)

x = torch.randn(64, 8)
y_reg = x[:, 0] * 3.0 + x[:, 1]
y_cls = (x[:, 2] > 0).long() + (x[:, 3] > 0).long()

first = None
for step in range(40):
    opt.zero_grad()
    pred_reg, pred_cls = net(x)
    losses = torch.stack([F.mse_loss(pred_reg, y_reg),
                          F.cross_entropy(pred_cls, y_cls)])
    total = weighter.backward(losses, net.last_shared.weight)
    if step == 0:
        first = total.item()
        trunk_grad = net.trunk[0].weight.grad.abs().sum().item()
        head_grads = (net.reg_head.weight.grad.abs().sum().item(),
                      net.cls_head.weight.grad.abs().sum().item())
    opt.step()

w = weighter.weights.detach()
print("weights", w.tolist(), "loss", first, "->", total.item())
assert trunk_grad > 0 and min(head_grads) > 0
assert not torch.allclose(w, torch.ones(2)), "GradNorm never moved the weights"
assert abs(w.sum().item() - 2.0) < 1e-4
assert total.item() < first
print("ok: GradNorm weights adapt and every part of the model trains")
