"""
expect: GL001 44
dynamic: confirm
source: https://github.com/HopefulRational/DeepCaps-PyTorch/pull/1

DeepCaps' class-capsule layer predicts u_hat = W @ x and routes it for three
iterations. PR #1 (merged, then reverted in PR #2) wanted the usual
stop-gradient during routing: "use detached u_hat during all the iteration
except the final iteration". It added u_hat_detached = u_hat.detach() but used
it in the weighted sum s_j of every iteration, the final one included, while the
agreement update b_ij kept using the attached u_hat. The capsule outputs that
reach the loss are therefore built from a constant copy of the predictions: the
direct path from the loss to W is gone, W only receives the small, indirect
gradient that leaks through the coupling logits, and with a single routing
iteration it receives nothing. The author acknowledged the detach was placed
wrongly. The asserts compare the merged layer with the intended one (attached
u_hat in the final iteration): with one iteration W.grad is None, with three the
W gradient is several times smaller and points elsewhere, and after the same
training budget the intended layer reaches a clearly lower loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def squash(s, dim=-1):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


class CapsuleLayer(nn.Module):
    def __init__(self, num_capsules=3, num_routes=12, in_channels=6, out_channels=8, routing_iters=3):
        super().__init__()
        self.routing_iters = routing_iters
        self.W = nn.Parameter(torch.randn(1, num_routes, num_capsules, out_channels, in_channels) * 0.1)
        self.bias = nn.Parameter(torch.rand(1, 1, num_capsules, out_channels) * 0.01)

    def forward(self, x):
        x = x.unsqueeze(2).unsqueeze(dim=4)
        u_hat = torch.matmul(self.W, x).squeeze(-1)            # (B, routes, caps, out)
        u_hat_detached = u_hat.detach()
        b_ij = x.new_zeros(x.shape[0], u_hat.shape[1], u_hat.shape[2], 1)
        for itr in range(self.routing_iters):
            c_ij = F.softmax(b_ij, dim=2)
            s_j = (c_ij * u_hat_detached).sum(dim=1, keepdim=True) + self.bias
            v_j = squash(s_j, dim=-1)
            if itr < self.routing_iters - 1:
                a_ij = (u_hat * v_j).sum(dim=-1, keepdim=True)
                b_ij = b_ij + a_ij
        return v_j.squeeze(1)


class IntendedCapsuleLayer(CapsuleLayer):
    """Stop-gradient only in the inner iterations, as the PR description says."""

    def forward(self, x):
        x = x.unsqueeze(2).unsqueeze(dim=4)
        u_hat = torch.matmul(self.W, x).squeeze(-1)
        b_ij = x.new_zeros(x.shape[0], u_hat.shape[1], u_hat.shape[2], 1)
        for itr in range(self.routing_iters):
            c_ij = F.softmax(b_ij, dim=2)
            source = u_hat if itr == self.routing_iters - 1 else u_hat.detach()
            s_j = (c_ij * source).sum(dim=1, keepdim=True) + self.bias
            v_j = squash(s_j, dim=-1)
            if itr < self.routing_iters - 1:
                b_ij = b_ij + (u_hat.detach() * v_j).sum(dim=-1, keepdim=True)
        return v_j.squeeze(1)


def margin_loss(v, y):
    lengths = v.norm(dim=-1)
    t = F.one_hot(y, lengths.size(1)).float()
    return (t * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - t) * F.relu(lengths - 0.1) ** 2).sum(1).mean()


x = torch.randn(96, 12, 6)
y = torch.randint(0, 3, (96,))


def w_grad(cls, iters):
    torch.manual_seed(1)
    layer = cls(routing_iters=iters)
    margin_loss(layer(x), y).backward()
    return layer.W.grad


assert w_grad(CapsuleLayer, 1) is None
assert w_grad(IntendedCapsuleLayer, 1).abs().sum() > 0
g_bug, g_ok = w_grad(CapsuleLayer, 3), w_grad(IntendedCapsuleLayer, 3)
cos = F.cosine_similarity(g_bug.flatten(), g_ok.flatten(), dim=0).item()
ratio = (g_bug.norm() / g_ok.norm()).item()
assert ratio < 0.5 and cos < 0.9, (ratio, cos)


def train(cls, steps=150):
    torch.manual_seed(1)
    layer = cls(routing_iters=3)
    opt = torch.optim.Adam(layer.parameters(), lr=5e-3)
    for _ in range(steps):
        loss = margin_loss(layer(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


loss_bug, loss_ok = train(CapsuleLayer), train(IntendedCapsuleLayer)
assert loss_ok < 0.7 * loss_bug, (loss_bug, loss_ok)
print("W grad ratio %.2f, cosine %.2f; loss merged %.3f vs intended %.3f" % (ratio, cos, loss_bug, loss_ok))
