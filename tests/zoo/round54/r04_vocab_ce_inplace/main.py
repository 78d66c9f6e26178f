"""
expect: GL005 cross_entropy.py:11
dynamic: confirm
source: https://github.com/NVIDIA/Megatron-LM/pull/1594

A small GPT-style pretraining step: hidden states go through an LM head, the logits get
an auxiliary z-loss (the squared log-partition, used to keep logits small) and then the
custom vocabulary cross-entropy. Inside that custom Function the logits are "upcast"
with .float(), which is a no-op for an fp32 model, so the following in-place
max-subtraction rewrites the caller's logits tensor. logsumexp saved that tensor for
its backward, so loss.backward() raises "modified by an inplace operation" in fp32
runs (a bf16 model would get a fresh copy from .float()). The asserts catch the error and
show that with a copy (clone) before the in-place edit the gradients match plain
autograd cross-entropy + z-loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import cross_entropy
from cross_entropy import vocab_cross_entropy

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyGPT(nn.Module):
    def __init__(self, vocab=50, dim=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        h = torch.tanh(self.mix(self.tok(ids)))
        return self.lm_head(h)


def pretrain_loss(model, ids, ce_fn, z_weight=1e-2):
    logits = model(ids[:, :-1])
    z_loss = z_weight * torch.logsumexp(logits, dim=-1).pow(2).mean()
    ce = ce_fn(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1)).mean()
    return ce + z_loss


ids = torch.randint(0, 50, (4, 9))
model = TinyGPT()

try:
    pretrain_loss(model, ids, vocab_cross_entropy).backward()
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err


class SafeVocabCrossEntropy(cross_entropy.VocabCrossEntropy):
    @staticmethod
    def forward(ctx, logits, target):
        return cross_entropy.VocabCrossEntropy.forward(ctx, logits.float().clone(), target)


model.zero_grad()
pretrain_loss(model, ids, SafeVocabCrossEntropy.apply).backward()
safe = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
pretrain_loss(model, ids, lambda lg, t: F.cross_entropy(lg, t, reduction="none")).backward()
ref = [p.grad.clone() for p in model.parameters()]
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(safe, ref))
print("fp32 path raised the in-place error; cloned path matches autograd:", True)
