"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/peft/pull/404

PEFT PR #404 ("Add gradient checkpointing check") fixes transformers issue #23170: with the
whole base model frozen and gradient checkpointing on, the reentrant checkpoint sees no
input that requires grad and the adapters get no gradients. The fix, applied automatically
when preparing a model for k-bit/adapter training, registers a forward hook on the input
embeddings that calls `output.requires_grad_(True)` on the frozen embedding output. That
looks like switching `requires_grad` on a value from a frozen module, but here it is the
correct thing to do: the tensor is only an entry point that makes each checkpointed block
record its graph, and the trainable LoRA matrices sit inside those blocks. This program
builds a tiny frozen language model with LoRA adapters in reentrant-checkpointed blocks and
the same hook; the asserts show every LoRA parameter receives gradients and moves, the loss
falls, and the frozen base weights stay untouched.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
VOCAB, D = 40, 16


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(D)
        self.fc_in, self.fc_out = nn.Linear(D, 4 * D), nn.Linear(4 * D, D)

    def forward(self, h):
        return h + self.fc_out(F.gelu(self.fc_in(self.norm(h))))


class TinyCausalLM(nn.Module):
    def __init__(self, n_layers=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, D)
        self.layers = nn.ModuleList([Block() for _ in range(n_layers)])
        self.lm_head = nn.Linear(D, VOCAB)
        self.gradient_checkpointing = True

    def get_input_embeddings(self):
        return self.embed_tokens

    def forward(self, ids):
        h = self.embed_tokens(ids)
        for layer in self.layers:
            h = checkpoint(layer, h, use_reentrant=True) if self.gradient_checkpointing else layer(h)
        return self.lm_head(h)


def prepare_model_for_adapter_training(model):
    for p in model.parameters():
        p.requires_grad_(False)
    for layer in model.layers:
        layer.fc_in = LoRALinear(layer.fc_in)

    def make_inputs_require_grad(module, input, output):
        output.requires_grad_(True)

    model.get_input_embeddings().register_forward_hook(make_inputs_require_grad)
    return model


if __name__ == "__main__":
    model = prepare_model_for_adapter_training(TinyCausalLM())
    frozen = {n: p.detach().clone() for n, p in model.named_parameters() if not p.requires_grad}
    lora = {n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    ids = torch.randint(0, VOCAB, (8, 12))
    losses = []
    for _ in range(25):
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    for n, p in model.named_parameters():
        if n in lora:
            assert p.grad is not None and not torch.equal(p.detach(), lora[n]), n
        else:
            assert p.grad is None and torch.equal(p.detach(), frozen[n]), n
    assert losses[-1] < losses[0]
    print(f"OK: {len(lora)} LoRA tensors train through checkpointed blocks; loss {losses[0]:.2f} -> {losses[-1]:.2f}")
