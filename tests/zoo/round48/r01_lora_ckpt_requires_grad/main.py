"""expect: GL003 trainer.py:10
dynamic: confirm
source: https://github.com/datawhalechina/self-llm/issues/189

LoRA fine-tuning of a multimodal LLaMA-style model: the base model is frozen, only the LoRA factors are
trainable, and every decoder block runs under reentrant activation checkpointing. Because the frozen
embedding output does not require grad, the reentrant checkpoint records nothing, the loss comes back
without a grad_fn and backward() raises "element 0 of tensors does not require grad". The user followed
the advice to set loss.requires_grad before backward: the error goes away, but the loss is now a fresh
leaf, so no LoRA factor gets a gradient and the optimizer never moves them (exactly what the issue
reports). The asserts show every LoRA factor has grad None and is unchanged after several steps, while
the same model with non-reentrant checkpointing trains its LoRA factors.
"""
import torch

from model import TinyCausalLM
from trainer import train_step

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model(use_reentrant):
    torch.manual_seed(1)
    m = TinyCausalLM(use_reentrant=use_reentrant)
    m.freeze_base()
    return m


ids = torch.randint(0, 50, (4, 12))
batch = {"input_ids": ids, "labels": ids.clone()}

# --- the patched script: runs without error, trains nothing ---
model = make_model(use_reentrant=True)
lora = [p for n, p in model.named_parameters() if "lora_" in n]
before = [p.detach().clone() for p in lora]
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
for _ in range(3):
    train_step(model, batch, opt)
assert all(p.grad is None for p in lora), "LoRA factors unexpectedly received gradients"
assert all(torch.equal(b, p) for b, p in zip(before, lora)), "LoRA factors moved"

# --- intended: the loss keeps its history (non-reentrant checkpointing), LoRA factors train ---
ref = make_model(use_reentrant=False)
ref_lora = [p for n, p in ref.named_parameters() if "lora_" in n]
ref_before = [p.detach().clone() for p in ref_lora]
ref_opt = torch.optim.AdamW([p for p in ref.parameters() if p.requires_grad], lr=1e-2)
ref.train()
for _ in range(3):
    ref_opt.zero_grad()
    loss = ref(batch["input_ids"], batch["labels"])
    assert loss.grad_fn is not None
    loss.backward()
    ref_opt.step()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in ref_lora)
assert all(not torch.equal(b, p) for b, p in zip(ref_before, ref_lora))
print("patched run: LoRA grads None, weights unchanged; intended run: LoRA factors trained")
