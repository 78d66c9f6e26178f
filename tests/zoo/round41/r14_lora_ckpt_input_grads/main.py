"""
expect: none
dynamic: dismiss
source: https://github.com/kongds/E5-V/issues/19

Contrastive fine-tuning of an embedding model with LoRA and gradient checkpointing, as in the
E5-V training script: the decoder and its token embeddings are frozen, only the LoRA matrices
train, and every block runs under reentrant torch.utils.checkpoint. Because the frozen
embedding produces an output that does not require grad, a reentrant checkpoint would return
outputs without history and the LoRA weights would get no gradient. The script therefore calls
enable_input_require_grads (tiny_llm.py), a forward hook that runs output.requires_grad_(True)
on the embedding output. The switch looks like a gradient being forced onto a frozen value,
but it only marks the checkpoint input so that autograd records the blocks; it does not
unfreeze the embedding (as the maintainer explains in the issue). The asserts show that
without the hook the loss has no grad_fn, and with it the LoRA B matrices move, the in-batch
InfoNCE loss falls, and the frozen embedding and base weights stay bit-identical.
"""
import warnings

import torch
import torch.nn.functional as F

from tiny_llm import TinyDecoder, enable_input_require_grads, freeze_all_but_lora

torch.manual_seed(0)
torch.set_num_threads(1)


def embed(model, ids):
    h = model(ids)
    return F.normalize(h[:, -1], dim=-1)  # last-token pooling


def info_nce(a, b, temperature=0.05):
    logits = a @ b.t() / temperature
    return F.cross_entropy(logits, torch.arange(a.shape[0]))


model = TinyDecoder()
freeze_all_but_lora(model)
model.train()
anchors = torch.randint(0, 50, (16, 10))
positives = torch.randint(0, 50, (16, 10))  # the paired text (e.g. caption) of each anchor

# Without the hook the reentrant checkpoints see no input that requires grad.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    probe = info_nce(embed(model, anchors), embed(model, positives))
assert not probe.requires_grad and any("requires_grad" in str(w.message) for w in caught)

handle = enable_input_require_grads(model)
frozen = {n: p.detach().clone() for n, p in model.named_parameters() if "lora_" not in n}
lora_B = [blk.proj.lora_B for blk in model.blocks]
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=2e-2)
losses = []
for _ in range(60):
    opt.zero_grad()
    loss = info_nce(embed(model, anchors), embed(model, positives))
    loss.backward()
    opt.step()
    losses.append(loss.item())

assert all(b.abs().sum() > 0 for b in lora_B)
assert losses[-1] < 0.5 * losses[0]
assert all(torch.equal(p, frozen[n]) for n, p in model.named_parameters() if "lora_" not in n)
assert model.get_input_embeddings().weight.grad is None
handle.remove()
print(f"InfoNCE {losses[0]:.3f} -> {losses[-1]:.3f}; only LoRA weights changed")
