"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/transformers/pull/21598

LoRA fine-tuning of a tiny language model with (reentrant) gradient
checkpointing, as in transformers' `enable_input_require_grads()`. The token
embedding and all base weights are frozen; only the LoRA adapters are in the
optimizer. With reentrant checkpointing, a block whose input does not require
grad is not recorded, so the adapters would get no gradient; the forward hook
on the frozen embedding switches `output.requires_grad_(True)` on its output to
make the checkpointed blocks differentiable. This is a requires_grad switch on
the output of a module nothing is training -- correct on purpose: the
adapters receive gradients and the loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, dim, rank=2):
        super().__init__()
        self.base = nn.Linear(dim, dim).requires_grad_(False)
        self.lora_a = nn.Parameter(0.1 * torch.randn(rank, dim))
        self.lora_b = nn.Parameter(torch.zeros(dim, rank))

    def forward(self, x):
        return torch.tanh(self.base(x) + x @ self.lora_a.t() @ self.lora_b.t())


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim).requires_grad_(False)
        self.blocks = nn.ModuleList([LoRALinear(dim) for _ in range(2)])
        self.head = nn.Linear(dim, vocab).requires_grad_(False)

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=True)
        return self.head(h)


def make_inputs_require_grad(module, inputs, output):
    output.requires_grad_(True)


model = TinyLM()
model.embed.register_forward_hook(make_inputs_require_grad)
adapters = [p for p in model.parameters() if p.requires_grad]
opt = torch.optim.Adam(adapters, lr=5e-2)
ids = torch.randint(0, 20, (4, 6))
labels = torch.randint(0, 20, (4, 6))

losses = []
for _ in range(30):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids).view(-1, 20), labels.view(-1))
    loss.backward()
    assert all(p.grad is not None for p in adapters), "adapters must get gradients"
    opt.step()
    losses.append(loss.item())

assert model.embed.weight.grad is None  # the embedding stays frozen
assert losses[-1] < losses[0] - 0.1, losses
print("OK: LoRA adapters train through checkpointed blocks (%.3f -> %.3f)" % (losses[0], losses[-1]))
