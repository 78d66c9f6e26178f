"""
expect: GL003 train_utils.py:13
dynamic: confirm
source: https://github.com/meta-llama/llama-cookbook/pull/112

The report: fine-tuning Llama 2 with PEFT raised "element 0 of tensors does not require grad and
does not have a grad_fn" (issue #92); the PR "enable grad on loss tensor" makes the loss require
grad so backward runs. The root cause is that with reentrant gradient checkpointing and a frozen
embedding no block input requires grad, so the checkpointed blocks return values without history.
This folder rebuilds it: main.py has a tiny causal LM with frozen base weights, LoRA adapters
inside checkpointed blocks, and train_utils.py has the loop that switches requires_grad on the
loss. The asserts show backward succeeds but every LoRA weight keeps grad None and never changes,
while making the embedding output require grad (enable_input_require_grads) trains them.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from train_utils import train

warnings.filterwarnings("ignore", message="None of the inputs have requires_grad")


class LoraLinear(nn.Module):
    def __init__(self, d, r=4):
        super().__init__()
        self.base = nn.Linear(d, d)
        self.base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, d) * 0.1)
        self.lora_B = nn.Parameter(torch.randn(d, r) * 0.1)

    def forward(self, x):
        return self.base(x) + x @ self.lora_A.t() @ self.lora_B.t()


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.norm.requires_grad_(False)
        self.mlp = LoraLinear(d)

    def forward(self, h):
        return h + torch.relu(self.mlp(self.norm(h)))


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.embed_tokens.requires_grad_(False)
        self.layers = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab)
        self.lm_head.requires_grad_(False)
        self.gradient_checkpointing = True

    def enable_input_require_grads(self):
        self.embed_tokens.register_forward_hook(lambda m, i, out: out.requires_grad_(True))

    def forward(self, input_ids, labels):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = checkpoint(layer, h, use_reentrant=True) if self.gradient_checkpointing else layer(h)
        logits = self.lm_head(h)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1))
        return {"loss": loss}


def lora_params(model):
    return [p for n, p in model.named_parameters() if "lora_" in n]


def run(fix):
    torch.manual_seed(0)
    model = TinyCausalLM()
    if fix:
        model.enable_input_require_grads()
    opt = torch.optim.AdamW(lora_params(model), lr=1e-2)
    before = [p.detach().clone() for p in lora_params(model)]
    ids = torch.randint(0, 50, (4, 12))
    data = [{"input_ids": ids, "labels": ids} for _ in range(3)]
    train(model, data, opt)
    moved = any(not torch.equal(a, b) for a, b in zip(before, lora_params(model)))
    return model, moved


model, moved = run(fix=False)
assert all(p.grad is None for p in lora_params(model)), "adapters get no gradient"
assert not moved, "adapters never change"
model, moved = run(fix=True)
assert moved
print("ok: requires_grad switched on a history-less loss hides an untrained LoRA model")
