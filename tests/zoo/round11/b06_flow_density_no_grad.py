"""
expect: GL003 45
dynamic: confirm
source: https://github.com/weizheliu/People-Flows/issues/7

The report: People-Flows' train.py on a newer PyTorch stopped at loss.backward() with "element 0 of
tensors does not require grad"; the reporter got past it by defining the tensor with requires_grad=True
(the thread does not say which step lost the graph). This program rebuilds a flow-based counter whose
density map is summed from the inflows inside a no_grad helper, plus that patch: requires_grad_() on
the density. The asserts show backward succeeds but every flow-network weight has grad None and stays
unchanged over the steps; summing the flows with grad enabled trains the network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowNet(nn.Module):
    """Predicts 9 inflow maps (8 neighbours + stay) from two consecutive frames."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 9, 1), nn.ReLU())

    def forward(self, prev_frame, frame):
        return self.net(torch.cat([prev_frame, frame], dim=1))


def flows_to_density(flows):
    with torch.no_grad():
        density = flows.sum(dim=1, keepdim=True)
    return density


torch.manual_seed(0)
model = FlowNet()
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
prev_frame, frame = torch.randn(2, 3, 24, 24), torch.randn(2, 3, 24, 24)
gt_density = torch.rand(2, 1, 24, 24)

w0 = model.net[0].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    density = flows_to_density(model(prev_frame, frame))
    density.requires_grad_()
    loss = F.mse_loss(density, gt_density, reduction="sum")
    loss.backward()
    assert all(p.grad is None for p in model.parameters())
    opt.step()
assert torch.equal(w0, model.net[0].weight)

opt.zero_grad()
F.mse_loss(model(prev_frame, frame).sum(dim=1, keepdim=True), gt_density, reduction="sum").backward()
assert model.net[0].weight.grad.abs().sum() > 0
print("ok: requires_grad_ on a no_grad density map silences the error, flow net never trains")
