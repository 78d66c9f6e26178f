"""
expect: GL005 39
dynamic: confirm
source: https://github.com/k2-fsa/k2/pull/1106

k2's RNN-T losses computed the gradient in forward, saved it with
save_for_backward and scaled it in place in backward. One backward worked,
but two backwards with retain_graph=True (the PR mentions training with
multiple optimizers) hit "modified by an inplace operation". Here a fused
cross-entropy Function does the same in-place scale and a trainer with an
encoder and a joiner optimizer backpropagates twice. The asserts show the
second backward fails, while an out-of-place backward matches the autograd
reference gradients on both passes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FusedCrossEntropy(torch.autograd.Function):
    """Loss and its gradient in one pass (the gradient is kept for backward)."""

    @staticmethod
    def forward(ctx, logits, target, inplace):
        logp = logits.log_softmax(-1)
        loss = -logp.gather(-1, target[:, None]).mean()
        grad = (logp.exp() - F.one_hot(target, logits.shape[-1]).to(logits.dtype)) / logits.shape[0]
        ctx.save_for_backward(grad)
        ctx.inplace = inplace
        return loss

    @staticmethod
    def backward(ctx, grad_out):
        (grad,) = ctx.saved_tensors
        if ctx.inplace:
            grad.mul_(grad_out)
            return grad, None, None
        return grad * grad_out, None, None


class TwoOptimizerTrainer:
    def __init__(self, inplace):
        self.encoder = nn.Sequential(nn.Linear(12, 24), nn.Tanh())
        self.joiner = nn.Linear(24, 5)
        self.opt_enc = torch.optim.SGD(self.encoder.parameters(), lr=0.1)
        self.opt_join = torch.optim.SGD(self.joiner.parameters(), lr=0.1)
        self.inplace = inplace

    def step(self, x, y):
        loss = FusedCrossEntropy.apply(self.joiner(self.encoder(x)), y, self.inplace)
        # joiner first, then the encoder, each from its own backward
        self.opt_join.zero_grad()
        loss.backward(retain_graph=True)
        g_join = self.joiner.weight.grad.clone()
        self.opt_enc.zero_grad()
        self.joiner.zero_grad()
        loss.backward()
        g_enc = self.encoder[0].weight.grad.clone()
        self.opt_join.step()
        self.opt_enc.step()
        return g_join, g_enc


x = torch.randn(16, 12)
y = torch.randint(0, 5, (16,))

buggy = TwoOptimizerTrainer(inplace=True)
err = None
try:
    buggy.step(x, y)
except RuntimeError as e:
    err = str(e)
print("in-place backward:", err[:80] if err else "no error")
assert err is not None and "inplace operation" in err

fixed = TwoOptimizerTrainer(inplace=False)
ref_enc = nn.Sequential(nn.Linear(12, 24), nn.Tanh())
ref_join = nn.Linear(24, 5)
ref_enc.load_state_dict(fixed.encoder.state_dict())
ref_join.load_state_dict(fixed.joiner.state_dict())
F.cross_entropy(ref_join(ref_enc(x)), y).backward()
g_join, g_enc = fixed.step(x, y)
assert torch.allclose(g_join, ref_join.weight.grad, atol=1e-6)
assert torch.allclose(g_enc, ref_enc[0].weight.grad, atol=1e-6)
print("confirmed: the in-place scale of a saved gradient breaks the second backward")
