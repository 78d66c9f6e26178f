"""
expect: GL001 metrics.py:17
dynamic: confirm
source: https://github.com/pytorch/ignite/issues/1674

The report: ignite's Loss metric started calling detach() on y_pred and y before handing them to the
loss function, which broke workflows that use the metric's loss for training (a loss that depends on
the input gradient, a GP marginal likelihood). Here a RunningLoss wrapper in metrics.py detaches its
inputs, and the trainer sums its value into the objective to fit an auxiliary regression head. The
asserts show reg_head.weight/bias get grad None on every step and never change, while the classifier
head does learn; calling F.mse_loss on the same output directly gives reg_head a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import RunningLoss


class TwoHeadNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.cls_head = nn.Linear(16, 3)
        self.reg_head = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h)


torch.manual_seed(0)
net = TwoHeadNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
reg_metric = RunningLoss(F.mse_loss, output_transform=lambda o: (o["reg"], o["reg_target"]))

x = torch.randn(32, 8)
labels = torch.randint(0, 3, (32,))
reg_target = torch.randn(32, 1)

reg_before = net.reg_head.weight.detach().clone()
cls_before = net.cls_head.weight.detach().clone()
for step in range(3):
    opt.zero_grad()
    logits, reg = net(x)
    loss = F.cross_entropy(logits, labels) + reg_metric({"reg": reg, "reg_target": reg_target})
    loss.backward()
    assert net.reg_head.weight.grad is None and net.reg_head.bias.grad is None
    assert net.cls_head.weight.grad is not None
    opt.step()

assert torch.equal(net.reg_head.weight, reg_before), "regression head should be frozen by the cut"
assert not torch.equal(net.cls_head.weight, cls_before)
print("running reg loss (display only):", round(reg_metric.compute(), 4))

# same output, loss computed directly: the regression head now gets a gradient
opt.zero_grad()
_, reg = net(x)
F.mse_loss(reg, reg_target).backward()
assert net.reg_head.weight.grad is not None and net.reg_head.weight.grad.abs().sum() > 0
print("ok: metric-wrapped loss term gave reg_head no gradient")
