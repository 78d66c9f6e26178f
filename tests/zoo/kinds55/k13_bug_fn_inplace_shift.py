"""
expect: GL005 18
dynamic: confirm
source: kinds check 55, kind 7

Listwise ranking loss for a recommender with a hand-written softmax Function.
Its forward does `z = z.float()` (a no-op on float32, same tensor) and then
shifts by the row max in place, editing the caller's score matrix, which the
earlier logsumexp saved for backward; backward raises.
"""
import torch


class ShiftedSoftmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        z = z.float()
        z -= z.max(dim=-1, keepdim=True).values
        e = z.exp()
        p = e / e.sum(dim=-1, keepdim=True)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        return p * (g - (g * p).sum(dim=-1, keepdim=True))


def item_probs(scores):
    return ShiftedSoftmax.apply(scores)


torch.manual_seed(0)
users = torch.randn(8, 16, requires_grad=True)
items = torch.randn(30, 16, requires_grad=True)
clicks = torch.rand(8, 30)
scores = users @ items.T
log_norm = torch.logsumexp(scores, dim=-1)
probs = item_probs(scores)
loss = -(clicks * probs.clamp_min(1e-9).log()).sum(-1).mean() + 0.01 * log_norm.pow(2).mean()
try:
    loss.backward()
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
    print("ok: backward raised:", str(err)[:70])
else:
    raise AssertionError("backward should have failed")
