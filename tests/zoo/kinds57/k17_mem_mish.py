"""
expect: GL005 28
dynamic: confirm
source: none, invented

A memory-saving Mish activation for a small image CNN, written as a custom autograd Function. Forward
saves its input for the derivative, then, to avoid allocating an output, takes `y = x.view_as(x)` and
multiplies it in place by `tanh(softplus(x))` and returns it. `y` shares storage with the saved input
and there is no `ctx.mark_dirty`, so by the time backward runs the "saved input" already holds
mish(x); the derivative is evaluated at the wrong point and nothing raises. The asserts compare the
conv weight gradients of the network with this activation against `F.mish` and against an
out-of-place version of the same Function: forward outputs agree, the in-place version's gradients do
not, and the out-of-place version matches `F.mish`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MemoryEfficientMish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        y = x.view_as(x)
        y.mul_(torch.tanh(F.softplus(x)))
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        tsp = torch.tanh(F.softplus(x))
        return grad_out * (tsp + x * torch.sigmoid(x) * (1 - tsp * tsp))


class MishReference(MemoryEfficientMish):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.tanh(F.softplus(x))


class SmallConvNet(nn.Module):
    def __init__(self, act=None):
        super().__init__()
        self.act = act
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32, 10)

    def activate(self, x):
        return F.mish(x) if self.act is None else self.act.apply(x)

    def forward(self, x):
        x = F.max_pool2d(self.activate(self.conv1(x)), 2)
        x = self.activate(self.conv2(x))
        return self.fc(x.mean((2, 3)))


def grads_for(act, images, labels):
    torch.manual_seed(0)
    net = SmallConvNet(act)
    logits = net(images)
    F.cross_entropy(logits, labels).backward()
    return logits.detach(), net.conv1.weight.grad.clone()


if __name__ == "__main__":
    images = torch.randn(16, 3, 16, 16)
    labels = torch.randint(0, 10, (16,))
    out_ref, g_ref = grads_for(None, images, labels)
    out_oop, g_oop = grads_for(MishReference, images, labels)
    out_mem, g_mem = grads_for(MemoryEfficientMish, images, labels)

    assert torch.allclose(out_mem, out_ref, atol=1e-6) and torch.allclose(out_oop, out_ref, atol=1e-6)
    assert torch.allclose(g_oop, g_ref, atol=1e-6)
    rel_err = ((g_mem - g_ref).norm() / g_ref.norm()).item()
    assert rel_err > 0.05, rel_err
    print(f"conv1 grad relative error: memory-efficient {rel_err:.3f}, reference {(g_oop - g_ref).norm() / g_ref.norm():.1e}")
