"""
expect: GL005 quant_ops.py:13
dynamic: confirm
source: none, invented

Quantisation-aware training of a keyword classifier head: `QuantLinear` fake-quantises its pre-activation
to 4 bits with a clipped straight-through estimator, `ClippedFakeQuant` in `quant_ops.py`. Its forward
saves the input with `ctx.save_for_backward(x)` and then clamps that same tensor in place with
`x.clamp_(...)`, with no `ctx.mark_dirty`. The saved tensor is the clamped one, so in backward every
element looks "inside the range" and the estimator passes gradient through the clipped positions too:
no error, just wrong gradients. The asserts show the forward output matching a reference implementation
that clamps a copy, while the weight gradients differ; the wrong gradients equal those of an unclipped
straight-through estimator, and the reference zeroes the gradient of every clipped position.
"""
import torch
import torch.nn as nn

from quant_ops import ClippedFakeQuant, QuantLinear

torch.manual_seed(0)
torch.set_num_threads(1)


class ReferenceFakeQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        ctx.limit = scale * qmax
        ctx.save_for_backward(x)
        return torch.round(x.clamp(-ctx.limit, ctx.limit) / scale) * scale

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * (x.abs() <= ctx.limit).to(grad_out.dtype), None, None


class PlainSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        return torch.round(x.clamp(-scale * qmax, scale * qmax) / scale) * scale

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None, None


def head_grads(layer, feats, labels, fq_fn=None):
    """Weight gradient of the head; fq_fn=None uses the layer's own forward."""
    layer.zero_grad()
    if fq_fn is None:
        logits = layer(feats)
    else:
        pre = nn.functional.linear(feats, layer.weight, layer.bias)
        logits = fq_fn.apply(pre, layer.act_scale, layer.bits)
    nn.functional.cross_entropy(logits, labels).backward()
    return logits.detach(), layer.weight.grad.clone()


if __name__ == "__main__":
    layer = QuantLinear(40, 10)
    feats = 2.0 * torch.randn(64, 40)
    labels = torch.randint(0, 10, (64,))
    with torch.no_grad():
        pre = nn.functional.linear(feats, layer.weight, layer.bias)
    clipped = pre.abs() > layer.act_scale * 7
    assert clipped.any()

    out_q, grad_q = head_grads(layer, feats, labels)
    out_ref, grad_ref = head_grads(layer, feats, labels, ReferenceFakeQuant)
    _, grad_plain = head_grads(layer, feats, labels, PlainSTE)

    assert torch.equal(out_q, out_ref)
    assert not torch.allclose(grad_q, grad_ref)
    assert torch.allclose(grad_q, grad_plain)

    # the reference really blocks the gradient at clipped positions
    pre_ref = pre.clone().requires_grad_()
    out = ReferenceFakeQuant.apply(pre_ref, layer.act_scale, layer.bits)
    nn.functional.cross_entropy(out, labels).backward()
    assert (pre_ref.grad[clipped] == 0).all() and pre_ref.grad[~clipped].abs().sum() > 0
    print(f"{int(clipped.sum())} clipped activations; weight-grad gap {(grad_q - grad_ref).abs().max():.4f}")
