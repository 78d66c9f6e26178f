"""
expect: none
dynamic: dismiss
source: none, invented

A PointNet-style classifier for small 3-D point clouds uses two hand-written activations. `FusedLeakyReLU`
scales the negative part of its input in place, declares it with `ctx.mark_dirty(x)` and saves the
result (the sign of the output equals the sign of the input, so the output is enough for the
derivative). `ClampedSTE` saves its input and clamps a clone, leaving the saved tensor untouched. Both
are correct ways to combine `save_for_backward` with an in-place edit. The asserts run
`torch.autograd.gradcheck` on both, compare their gradients inside the network with `F.leaky_relu` /
`F.hardtanh` references, and show the classifier training to high accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FusedLeakyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope=0.1):
        ctx.mark_dirty(x)
        x.mul_(torch.where(x < 0, slope, 1.0))
        ctx.slope = slope
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad_out):
        out, = ctx.saved_tensors
        return grad_out * torch.where(out < 0, ctx.slope, 1.0), None


class ClampedSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound=1.0):
        ctx.save_for_backward(x)
        ctx.bound = bound
        y = x.clone()
        y.clamp_(-bound, bound)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * (x.abs() <= ctx.bound).to(grad_out.dtype), None


class TinyPointNet(nn.Module):
    def __init__(self, n_classes=3, reference=False):
        super().__init__()
        self.reference = reference
        self.point_mlp1 = nn.Linear(3, 32)
        self.point_mlp2 = nn.Linear(32, 64)
        self.cls = nn.Linear(64, n_classes)

    def forward(self, pts):
        h = self.point_mlp1(pts)
        h = F.leaky_relu(h, 0.1) if self.reference else FusedLeakyReLU.apply(h, 0.1)
        h = self.point_mlp2(h)
        h = F.hardtanh(h) if self.reference else ClampedSTE.apply(h)
        return self.cls(h.max(dim=1).values)


def clouds(n=300, pts=64):
    labels = torch.randint(0, 3, (n,))
    p = torch.randn(n, pts, 3)
    p[labels == 0] *= torch.tensor([2.0, 0.3, 0.3])   # rods
    p[labels == 1] *= torch.tensor([2.0, 2.0, 0.2])   # plates
    p[labels == 2] = F.normalize(p[labels == 2], dim=-1)  # shells
    return p, labels


if __name__ == "__main__":
    x = torch.randn(6, 5, dtype=torch.double, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: FusedLeakyReLU.apply(t * 1.0, 0.1), (x,))
    assert torch.autograd.gradcheck(lambda t: ClampedSTE.apply(t * 3.0), (x,))

    pts, labels = clouds()
    net, ref = TinyPointNet(), TinyPointNet(reference=True)
    ref.load_state_dict(net.state_dict())
    F.cross_entropy(net(pts[:32]), labels[:32]).backward()
    F.cross_entropy(ref(pts[:32]), labels[:32]).backward()
    assert torch.allclose(net.point_mlp1.weight.grad, ref.point_mlp1.weight.grad, atol=1e-6)
    assert torch.allclose(net.point_mlp2.weight.grad, ref.point_mlp2.weight.grad, atol=1e-6)

    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for epoch in range(8):
        for i in range(0, 300, 30):
            loss = F.cross_entropy(net(pts[i:i + 30]), labels[i:i + 30])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        acc = (net(pts).argmax(-1) == labels).float().mean().item()
    assert acc > 0.9, acc
    print(f"gradcheck passed; point-cloud accuracy {acc:.2f}")
