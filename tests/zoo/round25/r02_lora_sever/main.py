"""
expect: GL002 lora.py:22
dynamic: confirm
source: https://github.com/paiml/aprender/pull/2232

The PR found that a LoRA layer rebuilt its low-rank branch as a fresh tensor from
raw values, which severed autograd: the loss still fell (the head trained) but the
adapters never moved. Here LoRALinear in lora.py turns the update into a list and
back with torch.tensor. Training runs without error; the asserts show A and B never
get a gradient or change, while the same model with the rebuild switched off does
train its adapters.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from lora import inject_lora

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyEncoder(nn.Module):
    def __init__(self, vocab=50, d=16, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.q_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.head = nn.Linear(d, n_cls)

    def forward(self, ids):
        h = self.emb(ids)
        att = torch.softmax(self.q_proj(h) @ h.transpose(1, 2) / 4.0, dim=-1)
        h = att @ self.v_proj(h)
        return self.head(h.mean(1))


def finetune(model, steps=8):
    model.emb.weight.requires_grad_(False)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(params, lr=0.1)
    ids = torch.randint(0, 50, (16, 6))
    y = torch.randint(0, 3, (16,))
    for _ in range(steps):
        loss = F.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


base = TinyEncoder()
buggy = inject_lora(copy.deepcopy(base), ["q_proj", "v_proj"])
fixed = inject_lora(copy.deepcopy(base), ["q_proj", "v_proj"], fuse_as_buffer=False)
A0 = buggy.q_proj.A.detach().clone()
head0 = buggy.head.weight.detach().clone()

finetune(buggy)
finetune(fixed)

# the adapters were handed to the optimizer but never received a gradient
assert buggy.q_proj.A.grad is None and buggy.v_proj.B.grad is None
assert torch.equal(buggy.q_proj.A, A0)
# the head did train, so the run looks healthy
assert not torch.equal(buggy.head.weight, head0)
# without the rebuild the adapters are trained
assert fixed.q_proj.A.grad is not None and fixed.q_proj.A.grad.abs().sum() > 0
assert not torch.equal(fixed.q_proj.A, A0)
print("ok")
