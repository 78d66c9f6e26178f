"""
expect: none
dynamic: dismiss
source: https://github.com/axolotl-ai-cloud/axolotl/issues/312

Axolotl's fix for LoRA + gradient checkpointing is to call
model.enable_input_require_grads() when the adapter is LoRA. That helper registers a
forward hook on the (frozen) input embeddings that does output.requires_grad_(True) -
a requires_grad switch on a value produced by a frozen module, which looks like the
classic "fix" that trains nothing. Here it is correct: reentrant checkpointing only
builds a graph if some input requires grad, and the LoRA weights live inside the
checkpointed blocks. The asserts show LoRA grads are None without the hook, match the
non-checkpointed reference with it, and the frozen embedding still gets no gradient.
"""
import warnings

import torch
import torch.nn.functional as F

from lora_model import TinyLM

torch.manual_seed(0)
torch.set_num_threads(1)

model = TinyLM()
ids = torch.randint(0, 50, (4, 12))


def lm_loss(m):
    logits = m(ids[:, :-1])
    return F.cross_entropy(logits.reshape(-1, 50), ids[:, 1:].reshape(-1))


def lora_grads(m):
    return [p.grad for n, p in m.named_parameters() if "lora_B" in n]


# reference: no checkpointing
model.train()
model.zero_grad()
lm_loss(model).backward()
ref = [g.clone() for g in lora_grads(model)]
assert all(g.abs().sum() > 0 for g in ref)

# checkpointing without the hook: the adapters get nothing
model.zero_grad(set_to_none=True)
model.gradient_checkpointing = True
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    loss = lm_loss(model)
assert not loss.requires_grad

# checkpointing with the hook, as axolotl does for LoRA
handle = model.enable_input_require_grads()
model.zero_grad(set_to_none=True)
lm_loss(model).backward()
for g, r in zip(lora_grads(model), ref):
    assert g is not None and torch.allclose(g, r, atol=1e-6)
assert model.embed.weight.grad is None

opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
first = lm_loss(model).item()
for _ in range(30):
    opt.zero_grad()
    lm_loss(model).backward()
    opt.step()
assert lm_loss(model).item() < first
handle.remove()
print("ok: embedding-output requires_grad_ hook makes checkpointed LoRA train")
