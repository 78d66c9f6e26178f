"""
expect: GL005 30
dynamic: confirm
source: none, invented

A one-block causal transformer for a toy next-token task, whose attention logits are soft-capped with
cap * tanh(logits / cap) through a hand-written `torch.autograd.Function`, `SoftCap`, to save memory.
`SoftCap.forward` saves the incoming logits with `ctx.save_for_backward`, then upcasts them with
`.float()` (a no-op for float32 input, so it is the very same tensor) and divides by the cap in place.
No error is raised, because the tensor was saved inside the same forward, but the backward now
reads logits that were already divided by the cap and computes the derivative at the wrong point:
the gradients silently disagree with autograd's own derivative of the same expression.  The asserts
compare parameter gradients against the plain-PyTorch reference: the in-place version differs, the
out-of-place `SoftCapV2` matches to 1e-5 and trains the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SoftCap(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, cap):
        ctx.save_for_backward(logits)
        ctx.cap = cap
        scores = logits.float()
        scores.div_(cap)
        return torch.tanh(scores) * cap

    @staticmethod
    def backward(ctx, grad_out):
        (logits,) = ctx.saved_tensors
        t = torch.tanh(logits / ctx.cap)
        return grad_out * (1 - t * t), None


class SoftCapV2(SoftCap):
    @staticmethod
    def forward(ctx, logits, cap):
        ctx.save_for_backward(logits)
        ctx.cap = cap
        return torch.tanh(logits.float() / cap) * cap


def reference_cap(logits, cap):
    return torch.tanh(logits / cap) * cap


class CappedBlock(nn.Module):
    def __init__(self, vocab=16, dim=32, cap=2.0, capper=SoftCap.apply):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.1 * torch.randn(24, dim))
        self.qkv = nn.Linear(dim, 3 * dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.lm_head = nn.Linear(dim, vocab)
        self.cap, self.capper = cap, capper

    def forward(self, ids):
        T = ids.shape[1]
        x = self.tok(ids) + self.pos[:T]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        logits = (q @ k.transpose(1, 2)) * q.shape[-1] ** -0.5
        logits = self.capper(logits, self.cap)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        attn = logits.masked_fill(~causal, float("-inf")).softmax(-1)
        x = x + attn @ v
        x = x + self.mlp(x)
        return self.lm_head(x)


def batch(n=32, T=24):
    start = torch.randint(0, 16, (n, 1))
    ids = (start + 3 * torch.arange(T)) % 16
    return ids[:, :-1], ids[:, 1:]


def grads_with(capper, state):
    model = CappedBlock(capper=capper)
    model.load_state_dict(state)
    torch.manual_seed(1)
    inp, tgt = batch()
    loss = F.cross_entropy(model(inp).reshape(-1, 16), tgt.reshape(-1))
    loss.backward()
    return {n: p.grad.clone() for n, p in model.named_parameters()}


if __name__ == "__main__":
    state = CappedBlock().state_dict()
    ref = grads_with(reference_cap, state)
    v1_grads = grads_with(SoftCap.apply, state)
    v2_grads = grads_with(SoftCapV2.apply, state)
    assert not torch.allclose(v1_grads["qkv.weight"], ref["qkv.weight"], atol=1e-4)
    assert all(torch.allclose(v2_grads[n], ref[n], atol=1e-5) for n in ref)

    model = CappedBlock(capper=SoftCapV2.apply)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(150):
        inp, tgt = batch()
        loss = F.cross_entropy(model(inp).reshape(-1, 16), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert loss.item() < 0.5, loss.item()
    print(f"k16: v1 soft-cap gradients differ from reference; v2 matches and trains (loss {loss.item():.3f})")
