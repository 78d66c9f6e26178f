"""
expect: GL003 75
dynamic: confirm
source: https://github.com/brian6091/Dreambooth/issues/23

DreamBooth-style fine-tuning of a tiny latent-diffusion setup with LoRA adapters placed
only in the text encoder (the UNet is frozen). The prompt helper runs the text encoder
under `torch.no_grad()` unless `train_text_encoder` is set, which it is not, so the
noise-prediction loss has no history; the training loop "fixes" the resulting backward
error by switching `loss.requires_grad = True`. That turns the loss into a brand-new
leaf: backward succeeds but stops at the loss itself, the LoRA weights never get a
gradient and the optimizer never moves them. The program asserts exactly that and that
running the text encoder with grad enabled does train the LoRA weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=4.0):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.normal_(self.lora_up.weight, std=0.02)
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.scale * self.lora_up(self.lora_down(x))


class TextEncoder(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim).requires_grad_(False)
        self.proj = LoRALinear(nn.Linear(dim, dim))
        self.norm = nn.LayerNorm(dim).requires_grad_(False)

    def forward(self, ids):
        return self.norm(self.proj(self.token_embedding(ids))).mean(dim=1)


class TinyUNet(nn.Module):
    def __init__(self, ch=4, cond_dim=16):
        super().__init__()
        self.inp = nn.Conv2d(ch, 8, 3, padding=1)
        self.cond = nn.Linear(cond_dim + 1, 8)
        self.out = nn.Conv2d(8, ch, 3, padding=1)

    def forward(self, x, t, cond):
        h = self.inp(x) + self.cond(torch.cat([cond, t[:, None]], dim=1))[:, :, None, None]
        return self.out(F.silu(h))


def encode_prompt(text_encoder, input_ids, train_text_encoder):
    if train_text_encoder:
        return text_encoder(input_ids)
    with torch.no_grad():
        return text_encoder(input_ids)


def training_step(unet, text_encoder, optimizer, latents, input_ids, train_text_encoder):
    noise = torch.randn_like(latents)
    t = torch.rand(latents.shape[0])
    alpha = torch.cos(t * torch.pi / 2)[:, None, None, None]
    sigma = torch.sin(t * torch.pi / 2)[:, None, None, None]
    noisy = alpha * latents + sigma * noise
    cond = encode_prompt(text_encoder, input_ids, train_text_encoder)
    pred = unet(noisy, t, cond)
    loss = F.mse_loss(pred, noise)
    if not loss.requires_grad:
        loss.requires_grad = True
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def run(train_text_encoder, steps=5):
    torch.manual_seed(1)
    unet = TinyUNet().requires_grad_(False)
    text_encoder = TextEncoder()
    lora_params = [p for n, p in text_encoder.named_parameters() if "lora" in n]
    optimizer = torch.optim.AdamW(lora_params, lr=1e-2)
    before = [p.detach().clone() for p in lora_params]
    latents = torch.randn(4, 4, 8, 8)
    input_ids = torch.randint(0, 30, (4, 6))
    grads = []
    for _ in range(steps):
        loss = training_step(unet, text_encoder, optimizer, latents, input_ids, train_text_encoder)
        grads.append([p.grad for p in lora_params])
    moved = any(not torch.equal(a, p) for a, p in zip(before, lora_params))
    return loss, grads, moved


loss, grads, moved = run(train_text_encoder=False)
assert loss.is_leaf and loss.grad is not None and loss.grad.item() == 1.0
assert all(g is None for step in grads for g in step)
assert not moved

loss, grads, moved = run(train_text_encoder=True)
assert all(g is not None and g.abs().sum() > 0 for step in grads for g in step)
assert moved

print("OK")
