"""
expect: GL003 84
dynamic: confirm
source: https://github.com/microsoft/LoRA/issues/124

The report: after swapping a pretrained model's Linear layers for LoRA layers,
training raised "element 0 of tensors does not require grad", and setting
`loss.requires_grad = True` made it "work". Here the pretrained backbone is
wrapped in a feature extractor whose forward runs under torch.no_grad() (it
was written for frozen-feature probing), so the LoRA matrices inside it never
enter the graph. Flipping requires_grad on the loss silences the error but
backward reaches nothing. The asserts show the LoRA weights get no grad and
stay at their init, while the same model without the no_grad wrapper trains
them.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.lora_B = nn.Parameter(torch.randn(base.out_features, r) * 0.01)
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


def inject_lora(model):
    for name, child in model.named_children():
        if isinstance(child, nn.Linear):
            setattr(model, name, LoRALinear(child))
        else:
            inject_lora(child)
    return model


class PretrainedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 24), nn.GELU())
        self.classifier = nn.Linear(24, 3)

    def forward(self, x):
        return self.classifier(self.body(x))


class FeatureExtractor(nn.Module):
    """Wrapper originally used for linear probing on frozen features."""

    def __init__(self, encoder, no_grad=True):
        super().__init__()
        self.encoder = encoder
        self.no_grad = no_grad

    def forward(self, x):
        if self.no_grad:
            with torch.no_grad():
                return self.encoder(x)
        return self.encoder(x)


def lora_params(model):
    return [p for n, p in model.named_parameters() if "lora_" in n]


def train(extractor, x, y, steps=5):
    opt = torch.optim.AdamW(lora_params(extractor), lr=1e-2)
    for _ in range(steps):
        logits = extractor(x)
        loss = F.cross_entropy(logits, y)
        if not loss.requires_grad:
            loss.requires_grad = True
        opt.zero_grad()
        loss.backward()
        opt.step()


x, y = torch.randn(32, 12), torch.randint(0, 3, (32,))
enc = inject_lora(PretrainedEncoder())
extractor = FeatureExtractor(enc)
before = [p.detach().clone() for p in lora_params(extractor)]
train(extractor, x, y)

# Bug: the error is gone but no LoRA weight got a gradient or moved.
assert all(p.grad is None for p in lora_params(extractor))
assert all(torch.equal(a, b) for a, b in zip(before, lora_params(extractor)))

# Fixed: without the no_grad wrapper the LoRA matrices train.
torch.manual_seed(0)
enc2 = inject_lora(PretrainedEncoder())
ext2 = FeatureExtractor(enc2, no_grad=False)
before2 = [p.detach().clone() for p in lora_params(ext2)]
train(ext2, x, y)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in lora_params(ext2))
assert any(not torch.equal(a, b) for a, b in zip(before2, lora_params(ext2)))
print("ok: loss.requires_grad=True hid a graph with no LoRA path")
