"""Custom autograd ops for quantization-aware training."""
import torch


class LSQFakeQuant(torch.autograd.Function):
    """Learned-step-size fake quantizer (straight-through inside the clip range)."""

    @staticmethod
    def forward(ctx, x, step, qmin, qmax):
        v = x / step
        q = v.clone()
        q.clamp_(qmin, qmax).round_()
        ctx.save_for_backward(v, q)
        ctx.qrange = (qmin, qmax)
        return q * step

    @staticmethod
    def backward(ctx, grad_out):
        v, q = ctx.saved_tensors
        qmin, qmax = ctx.qrange
        inside = (v >= qmin) & (v <= qmax)
        grad_x = grad_out * inside
        grad_step = (grad_out * torch.where(inside, q - v, q)).sum().reshape(1)
        return grad_x, grad_step, None, None


class CappedReLU(torch.autograd.Function):
    """min(max(x, 0), cap); only the pass-through mask is kept for backward."""

    @staticmethod
    def forward(ctx, x, cap):
        out = x.clamp(min=0)
        ctx.save_for_backward((x > 0) & (x < cap))
        out.clamp_(max=cap)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        passthrough, = ctx.saved_tensors
        return grad_out * passthrough, None
