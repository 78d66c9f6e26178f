"""
expect: GL005 49
dynamic: confirm
source: https://github.com/linkedin/Liger-Kernel/issues/254

The issue asks whether Liger's SwiGLU kernel may write its gradient into the input
buffers during backward: if the input is a tensor that an upstream custom Function saved
for its own backward (an Exponential that saves its output), that saved value is
overwritten before it is used. Here a fused SwiGLU Function reuses its gate input's
storage for the gate gradient through .data, which the version counter does not see, so
the upstream Exp backward silently reads the gradient instead of exp(x). The asserts
show the layer's gradient differs from plain autograd, and an out-of-place variant agrees.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = torch.exp(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out


class FusedSwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, reuse_buffers):
        ctx.save_for_backward(a, b)
        ctx.reuse = reuse_buffers
        return F.silu(a) * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        s = torch.sigmoid(a)
        da = g * b * (s + a * s * (1 - s))
        db = g * F.silu(a)
        if ctx.reuse:  # save memory: write the gate grad over the gate input
            a.data.copy_(da)
            return a.data, db, None
        return da, db, None


class GatedBlock(nn.Module):
    def __init__(self, reuse):
        super().__init__()
        self.gate = nn.Linear(8, 16)
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 4)
        self.reuse = reuse

    def forward(self, x):
        a = Exp.apply(self.gate(x) * 0.1)
        return self.down(FusedSwiGLU.apply(a, self.up(x), self.reuse))


def reference(block, x):
    a = torch.exp(block.gate(x) * 0.1)
    return block.down(F.silu(a) * block.up(x))


x, y = torch.randn(16, 8), torch.randn(16, 4)
grads = {}
for name, reuse in [("fused", True), ("plain", False)]:
    torch.manual_seed(1)
    blk = GatedBlock(reuse)
    F.mse_loss(blk(x), y).backward()
    grads[name] = blk.gate.weight.grad.clone()
    blk.zero_grad()
    F.mse_loss(reference(blk, x), y).backward()
    grads[name + "_ref"] = blk.gate.weight.grad.clone()

assert torch.allclose(grads["plain"], grads["plain_ref"], atol=1e-6)
assert not torch.allclose(grads["fused"], grads["fused_ref"], atol=1e-4)
print("bug confirmed: gate grad off by", (grads["fused"] - grads["fused_ref"]).abs().max().item())
