"""
expect: GL005 esm_qlora.py:56
dynamic: confirm
source: https://github.com/huggingface/transformers/pull/26454

Protein language models (ESM-2 fine-tuning with 4-bit base weights + LoRA). In the
QLoRA setup the query projection is produced by a custom autograd Function (the 4-bit
matmul) whose output is a reshaped view; the ESM attention code then scales the
query in place (`q *= self.scaling`). Autograd forbids in-place edits of a view created
inside a custom Function because it would bypass that Function's backward, so
masked-LM fine-tuning stops with "Output 0 of MatMul4Bit is a view and is being modified
inplace" (the PR's error, fixed by replacing the in-place ops with out-of-place ones).
The asserts catch that error on the default path and show that the out-of-place
`q = q * self.scaling` version fine-tunes: the masked-LM loss falls and the LoRA
adapters receive gradient.
"""
import torch

from esm_qlora import TinyEsm, mlm_loss

torch.manual_seed(0)
torch.set_num_threads(1)

AA = 20
# a small "family" of related sequences: a motif with a few random substitutions
motif = torch.randint(4, 4 + AA, (24,))


def batch(n=32):
    seqs = motif.repeat(n, 1)
    sub = torch.rand(seqs.shape) < 0.1
    return torch.where(sub, torch.randint(4, 4 + AA, seqs.shape), seqs)


def finetune(inplace, steps=70):
    torch.manual_seed(3)
    model = TinyEsm(inplace_scaling=inplace)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=3e-3)
    losses = []
    for _ in range(steps):
        loss = mlm_loss(model, batch())
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


try:
    finetune(inplace=True)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "is a view and is being modified inplace" in raised, raised
print("in-place query scaling fails:", raised[:80])

model, losses = finetune(inplace=False)
first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
assert last < 0.75 * first, (first, last)
assert model.attn.query.lora_B.grad is not None and model.attn.query.lora_B.grad.abs().sum() > 0
print("out-of-place scaling fine-tunes: %.3f -> %.3f" % (first, last))
