"""
expect: GL005 30
dynamic: confirm
source: none, invented

A memory-saving Swish written as a torch.autograd.Function for a normalizer-free MLP: forward
computes out = x * sigmoid(x), saves (sig, out) for the backward formula
d/dx = sig + out * (1 - sig), and then multiplies out by the constant NF gain in place so the
returned activation is variance preserving. Because the gain is applied after save_for_backward,
the saved `out` is the scaled tensor, and since a custom Function packs its saved tensors only when
forward returns, autograd raises no error: the backward silently uses gain * x * sig where it needs
x * sig. The asserts show that torch.autograd.gradcheck rejects the Function and that its gradient
differs from the one autograd computes for the same expression, while the variant that scales a
new tensor (leaving the saved one intact) passes gradcheck and trains the regression MLP.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

NF_GAIN = 1.7868


class GainSwish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain):
        sig = torch.sigmoid(x)
        out = x * sig
        ctx.save_for_backward(sig, out)
        ctx.gain = gain
        out.mul_(gain)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        sig, out = ctx.saved_tensors
        return grad_out * ctx.gain * (sig + out * (1 - sig)), None


class GainSwishV2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain):
        sig = torch.sigmoid(x)
        out = x * sig
        ctx.save_for_backward(sig, out)
        ctx.gain = gain
        return out * gain

    @staticmethod
    def backward(ctx, grad_out):
        sig, out = ctx.saved_tensors
        return grad_out * ctx.gain * (sig + out * (1 - sig)), None


def reference(x, gain):
    return gain * F.silu(x)


def build_mlp(act_fn, width=64):
    class NFMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1, self.l2, self.l3 = nn.Linear(4, width), nn.Linear(width, width), nn.Linear(width, 1)

        def forward(self, x):
            h = act_fn(self.l1(x), NF_GAIN)
            h = act_fn(self.l2(h), NF_GAIN)
            return self.l3(h)
    return NFMLP()


def fit(act_fn, steps=200):
    torch.manual_seed(0)
    net = build_mlp(act_fn)
    opt = torch.optim.SGD(net.parameters(), lr=1e-2, momentum=0.9)
    x = torch.randn(256, 4)
    y = torch.sin(x[:, :1] * 2) + x[:, 1:2] * x[:, 2:3]
    first = None
    for _ in range(steps):
        loss = F.mse_loss(net(x), y)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    return first, loss.item()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    x = torch.randn(6, 5, dtype=torch.double, requires_grad=True)

    ok = torch.autograd.gradcheck(GainSwish.apply, (x, NF_GAIN), raise_exception=False)
    assert not ok
    g_fn, = torch.autograd.grad(GainSwish.apply(x, NF_GAIN).sum(), x)
    g_ref, = torch.autograd.grad(reference(x, NF_GAIN).sum(), x)
    assert torch.allclose(GainSwish.apply(x, NF_GAIN), reference(x, NF_GAIN))
    assert not torch.allclose(g_fn, g_ref)

    assert torch.autograd.gradcheck(GainSwishV2.apply, (x, NF_GAIN))
    g_v2, = torch.autograd.grad(GainSwishV2.apply(x, NF_GAIN).sum(), x)
    assert torch.allclose(g_v2, g_ref)

    first, last = fit(GainSwishV2.apply)
    assert last < 0.5 * first, (first, last)
    print("gain swish: ok, mse %.4f -> %.4f" % (first, last))


if __name__ == "__main__":
    main()
