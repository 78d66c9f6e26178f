"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 7

Listwise ranking loss for a recommender with a hand-written softmax Function.
Its forward shifts by the row max in place, but on `z.clone()`, so the caller's
score matrix, saved by the earlier logsumexp, is untouched and backward runs;
the gradient matches torch.softmax's.
"""
import torch


class ShiftedSoftmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        z = z.clone()
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
loss.backward()
g_users = users.grad.clone()
users.grad = None
ref = torch.softmax(users @ items.T, dim=-1)
ref_loss = -(clicks * ref.clamp_min(1e-9).log()).sum(-1).mean() + 0.01 * torch.logsumexp(users @ items.T, -1).pow(2).mean()
ref_loss.backward()
assert torch.allclose(g_users, users.grad, atol=1e-6)
print("ok: custom softmax trains, gradient matches")
