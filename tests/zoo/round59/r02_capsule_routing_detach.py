"""
expect: none
dynamic: dismiss
source: https://github.com/danielhavir/capsule-network/issues/2

In this CapsNet implementation the routing layer computes the prediction vectors
u_hat = W @ x, then makes a detached copy and runs all routing iterations except
the last on that copy: coupling logits b are built with an in-place "b += uv"
from detached predictions, and only the final weighted sum s = sum_i c_i * u_hat_i
uses the attached u_hat. The issue asked why the last iteration is special; the
author explained that the inner iterations are only a search for coupling
coefficients and must not send gradients into W (the same stop-gradient as the
TensorFlow/Keras references). Both the detach and the in-place update on b look
suspicious but are intended: b never requires grad, and nothing saved for
backward is overwritten. The asserts show that backward works, that W gets a
gradient equal to the one obtained by treating the final coupling coefficients
as constants, that b stays out of the graph, and that a small two-class problem
is learned.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def squash(s, dim=-1):
    squared_norm = (s ** 2).sum(dim=dim, keepdim=True)
    return squared_norm / (1 + squared_norm) * s / (torch.sqrt(squared_norm) + 1e-8)


class RoutingCapsules(nn.Module):
    def __init__(self, in_dim, in_caps, num_caps, dim_caps, num_routing):
        super().__init__()
        self.num_caps, self.in_caps = num_caps, in_caps
        self.num_routing = num_routing
        self.W = nn.Parameter(0.1 * torch.randn(1, num_caps, in_caps, dim_caps, in_dim))
        self.last_b = None

    def forward(self, x):
        batch = x.size(0)
        x = x.unsqueeze(1).unsqueeze(4)
        u_hat = torch.matmul(self.W, x).squeeze(-1)      # (B, caps, in_caps, dim)
        temp_u_hat = u_hat.detach()                       # routing search only

        b = torch.zeros(batch, self.num_caps, self.in_caps, 1)
        for _ in range(self.num_routing - 1):
            c = F.softmax(b, dim=1)
            s = (c * temp_u_hat).sum(dim=2)
            v = squash(s)
            uv = torch.matmul(temp_u_hat, v.unsqueeze(-1))
            b += uv

        self.last_b = b
        c = F.softmax(b, dim=1)
        s = (c * u_hat).sum(dim=2)                        # gradient flows here only
        return squash(s)


class TinyCapsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.primary = nn.Linear(16, 8 * 4)               # 8 primary capsules of dim 4
        self.digits = RoutingCapsules(in_dim=4, in_caps=8, num_caps=2, dim_caps=6, num_routing=3)

    def forward(self, img):
        prim = squash(self.primary(img).view(img.size(0), 8, 4))
        return self.digits(prim)


def margin_loss(lengths, target):
    t = F.one_hot(target, 2).float()
    loss = t * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - t) * F.relu(lengths - 0.1) ** 2
    return loss.sum(1).mean()


x = torch.randn(128, 16)
y = (x[:, :8].sum(1) > x[:, 8:].sum(1)).long()
net = TinyCapsNet()

# 1) gradient of W equals the one with the final coupling coefficients frozen
out = net(x)
loss = margin_loss(out.norm(dim=-1), y)
gW = torch.autograd.grad(loss, net.digits.W)[0]
assert net.digits.last_b.requires_grad is False
with torch.no_grad():
    c_const = F.softmax(net.digits.last_b, dim=1)
prim = squash(net.primary(x).view(128, 8, 4)).unsqueeze(1).unsqueeze(4)
u_hat = torch.matmul(net.digits.W, prim).squeeze(-1)
ref = squash((c_const * u_hat).sum(dim=2))
gW_ref = torch.autograd.grad(margin_loss(ref.norm(dim=-1), y), net.digits.W)[0]
assert gW.abs().sum() > 0
assert torch.allclose(gW, gW_ref, atol=1e-6)

# 2) the model trains
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
W0 = net.digits.W.detach().clone()
first = None
for step in range(150):
    out = net(x)
    loss = margin_loss(out.norm(dim=-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
acc = (net(x).norm(dim=-1).argmax(1) == y).float().mean().item()
assert not torch.equal(W0, net.digits.W.detach())
assert loss.item() < 0.5 * first and acc > 0.85, (first, loss.item(), acc)
print("capsule routing with stop-gradient: loss %.3f -> %.3f, acc %.2f" % (first, loss.item(), acc))
