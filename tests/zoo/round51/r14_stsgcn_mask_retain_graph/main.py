"""
expect: GL004 main.py:32
dynamic: confirm
source: https://github.com/LibCity/Bigscity-LibCity/blob/3a993096b75012d5e45e9975476a7898a253503b/libcity/model/traffic_flow_prediction/STSGCN.py

A traffic-flow graph model with a learnable adjacency mask. The model multiplies the mask
into the adjacency once, in __init__ (model.py), and keeps the product: a tensor with
autograd history that every training step reuses. The first backward frees that product's
graph, so the second step fails with "backward through the graph a second time"; the
model's own warning tells users to switch to loss.backward(retain_graph=True), which the
trainer here does. That keeps the construction-time graph alive and reached by every
step's backward, and the mask never really trains: the optimizer moves the mask
parameter, but the adjacency used in forward is the stale product from __init__. The
asserts show the plain backward error, that each retained backward reaches the same
construction-time node (a hook on it fires once per iteration), that the adjacency stays
frozen while the mask changes, and that rebuilding the product inside forward needs no
retain_graph and lets the mask act.
"""
import torch
import torch.nn.functional as F

from model import MaskedSTGCN


def train(model, batches, retain_graph):
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    losses = []
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        if retain_graph:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
torch.set_num_threads(1)
n = 4
road = ((torch.rand(n, n) < 0.5).float() + torch.eye(n)).clamp(max=1)
batches = [(torch.randn(8, 3 * n, 1), torch.randn(8, 3 * n)) for _ in range(6)]

# without retain_graph the second step trips over the construction-time graph
model = MaskedSTGCN(road)
try:
    train(model, batches[:2], retain_graph=False)
    raise AssertionError("expected a second-backward error")
except RuntimeError as err:
    assert "backward through the graph a second time" in str(err)

# with retain_graph=True: every step's backward walks back into the node built in __init__
torch.manual_seed(0)
model = MaskedSTGCN(road)
visits = []
model.adj.register_hook(lambda g: visits.append(1))
adj_before = model.adj.detach().clone()
mask_before = model.mask.detach().clone()
train(model, batches, retain_graph=True)
assert len(visits) == len(batches)
assert not torch.equal(model.mask.detach(), mask_before)      # the mask parameter moves ...
assert torch.equal(model.adj.detach(), adj_before)            # ... but the adjacency in use never does

# intended: rebuild the masked adjacency every forward; no retained graph needed
class RebuiltMask(MaskedSTGCN):
    def forward(self, x):
        self.adj = self.mask * self.base_adj
        return super().forward(x)

torch.manual_seed(0)
fixed = RebuiltMask(road)
train(fixed, batches, retain_graph=False)
assert not torch.equal(fixed.adj.detach(), adj_before)
print("retained construction-time graph reached by", len(visits), "backward passes")
