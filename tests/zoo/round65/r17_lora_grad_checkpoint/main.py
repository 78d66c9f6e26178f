"""
expect: GL001 lora_model.py:52
dynamic: confirm
source: https://github.com/microsoft/LoRA/issues/120

Parameter-efficient fine-tuning (LoRA). The report: with gradient checkpointing
turned on, the gradients of every `lora_A`/`lora_B` are None and the adapters
never change; without checkpointing they train. The encoder freezes the base
model (embedding and base weights) and wraps each block in the reentrant
`torch.utils.checkpoint.checkpoint`, which runs the block's forward under no_grad
and only rebuilds a graph if one of its tensor inputs requires grad. The hidden
state coming out of the frozen embedding does not, so the block output carries no
history back to the LoRA matrices; the trainable classifier head still gives the
loss a grad_fn, so `backward()` succeeds silently. The asserts show the LoRA
gradients are None and `lora_B` stays zero on the default path, and that the same
model with the non-reentrant checkpoint gives the adapters gradient and a lower
training loss.
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn.functional as F

from lora_model import Encoder, mark_only_lora_as_trainable

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="None of the inputs have requires_grad")

tokens = torch.randint(0, 50, (64, 12))
labels = (tokens[:, :6].float().mean(1) > tokens[:, 6:].float().mean(1)).long()


def finetune(use_reentrant, steps=200):
    torch.manual_seed(0)
    model = Encoder()
    mark_only_lora_as_trainable(model)
    model.gradient_checkpointing = True
    model.use_reentrant = use_reentrant
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    model.train()
    losses, lora_grads = [], None
    for step in range(steps):
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        if step == 0:
            lora_grads = [p.grad for n, p in model.named_parameters() if "lora_" in n]
            head_grad = model.classifier.weight.grad
            assert head_grad is not None and head_grad.abs().sum() > 0
        opt.step()
        losses.append(loss.item())
    return model, losses, lora_grads


# --- default path: reentrant checkpoint over a frozen-embedding input
model, losses_bug, grads_bug = finetune(use_reentrant=True)
assert all(g is None for g in grads_bug), "LoRA matrices got no gradient"
assert all(b.lora_B.abs().max() == 0 for blk in model.blocks for b in (blk.fc1, blk.fc2))

# --- fixed: non-reentrant checkpoint keeps the parameter path
model_fix, losses_fix, grads_fix = finetune(use_reentrant=False)
assert all(g is not None and g.abs().sum() > 0 for g in grads_fix[1::2]), "lora_B gets gradient"
assert any(b.lora_B.abs().max() > 0 for blk in model_fix.blocks for b in (blk.fc1, blk.fc2))
assert losses_fix[-1] < 0.5 * losses_bug[-1], (losses_bug[-1], losses_fix[-1])
print(f"final loss head-only {losses_bug[-1]:.3f} vs with LoRA grads {losses_fix[-1]:.3f}")
