"""LoRA wrapping and adapter loading for the small causal LM (mimics a PEFT-style loader)."""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) * 0.02)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


def inject_lora(model, targets=("q_proj", "v_proj")):
    for block in model.blocks:
        for name in targets:
            setattr(block, name, LoRALinear(getattr(block, name)))
    return model


def load_adapter(model, adapter_state, is_trainable=False):
    """Wrap the base model, copy saved adapter weights in, and (by default, as for
    inference) freeze everything, adapter included."""
    inject_lora(model)
    missing = model.load_state_dict(adapter_state, strict=False)
    assert not missing.unexpected_keys
    for name, p in model.named_parameters():
        p.requires_grad_(is_trainable and "lora_" in name)
    return model


def lora_parameters(model):
    return [p for n, p in model.named_parameters() if "lora_" in n]
