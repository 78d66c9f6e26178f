"""
expect: none
dynamic: dismiss
source: https://github.com/FlagAI-Open/FlagAI/issues/473

LoRA fine-tuning of a small causal LM with activation checkpointing. The base model
(embedding, attention/MLP weights, head) is frozen; only the LoRA matrices inside the
transformer blocks train, and every block runs through reentrant
torch.utils.checkpoint. With reentrant checkpointing a block's parameters only get
gradients if some tensor input of the block requires grad, and the output of a
frozen embedding does not, so the adapters silently stop learning (the
non-converging LoRA loss of the report, cured there by enable_input_require_grads()).
The cure, reproduced here, is a forward hook on the frozen embedding that calls
output.requires_grad_(True): a requires_grad switch on a value from a frozen module
that is correct and needed, because the parameters it unlocks sit downstream inside
the checkpointed blocks. The asserts compare a run without the hook (no adapter
gradients) with the hooked run (adapter gradients, falling loss).
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEQ = 40, 32, 10


class LoRALinear(nn.Module):
    def __init__(self, d_in, d_out, rank=4):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.lora_A = nn.Parameter(torch.randn(rank, d_in) * 0.05)
        self.lora_B = nn.Parameter(torch.zeros(d_out, rank))

    def forward(self, x):
        return self.base(x) + x @ self.lora_A.t() @ self.lora_B.t() * 2.0


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = LoRALinear(DIM, DIM)
        self.v = LoRALinear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 64), nn.GELU(), nn.Linear(64, DIM))
        self.norm = nn.LayerNorm(DIM)

    def forward(self, x):
        h = self.norm(x)
        att = (self.q(h) @ h.transpose(1, 2) / DIM ** 0.5)
        mask = torch.ones(x.shape[1], x.shape[1]).triu(1).bool()
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        x = x + att @ self.v(h)
        return x + self.mlp(x)


class CheckpointedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        x = self.embed(ids)
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=True)
        return self.head(x)


def prepare_for_lora(model):
    for name, p in model.named_parameters():
        p.requires_grad_("lora_" in name)
    return [p for n, p in model.named_parameters() if "lora_" in n]


def enable_input_require_grads(model):
    def make_inputs_require_grad(module, inputs, output):
        output.requires_grad_(True)
    return model.embed.register_forward_hook(make_inputs_require_grad)


def lm_loss(model, ids):
    logits = model(ids[:, :-1])
    return F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


ids = torch.randint(0, VOCAB, (8, SEQ))

# Without the hook: the checkpointed blocks see no input that requires grad.
model = CheckpointedLM()
lora = prepare_for_lora(model)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    loss = lm_loss(model, ids)
assert not loss.requires_grad, "no path from the loss to the adapters"
assert all(p.grad is None for p in lora)

# With the hook, as in enable_input_require_grads().
torch.manual_seed(0)
model = CheckpointedLM()
lora = prepare_for_lora(model)
enable_input_require_grads(model)
opt = torch.optim.AdamW(lora, lr=1e-2)
history = []
for _ in range(25):
    opt.zero_grad()
    loss = lm_loss(model, ids)
    loss.backward()
    opt.step()
    history.append(loss.item())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in lora)
assert model.embed.weight.grad is None, "the frozen embedding itself stays untouched"
assert history[-1] < history[0]
print("adapters trained through checkpointed blocks: loss %.3f -> %.3f" % (history[0], history[-1]))
