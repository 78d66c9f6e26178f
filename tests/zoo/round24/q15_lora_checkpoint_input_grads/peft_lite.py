import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.q_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        attn = torch.softmax(self.q_proj(h) @ h.transpose(1, 2) / h.size(-1) ** 0.5, -1) @ self.v_proj(h)
        x = x + attn
        return x + self.mlp(x)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=40, dim=32, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab)
        self.gradient_checkpointing = False

    def get_input_embeddings(self):
        return self.embed_tokens

    def forward(self, ids):
        x = self.embed_tokens(ids)
        for layer in self.layers:
            if self.gradient_checkpointing:
                x = checkpoint(layer, x, use_reentrant=True)
            else:
                x = layer(x)
        return self.lm_head(self.norm(x))


def get_peft_model(model, r=4, modules_to_save=("norm",)):
    model.requires_grad_(False)
    for name in modules_to_save:
        getattr(model, name).requires_grad_(True)
    for layer in model.layers:
        layer.q_proj = LoRALinear(layer.q_proj, r)
        layer.v_proj = LoRALinear(layer.v_proj, r)
    return model


def enable_input_require_grads(model):
    def make_inputs_require_grads(module, input, output):
        output.requires_grad_(True)

    return model.get_input_embeddings().register_forward_hook(make_inputs_require_grads)
