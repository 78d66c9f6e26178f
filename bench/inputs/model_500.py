"""A 500-line model file for the latency benchmark: a small vision-language model, its blocks,
losses, an EMA teacher and a training loop, written the way research code usually is.

Not imported by anything; gradlint reads it (bench/latency.py). It has no findings.
"""
from __future__ import annotations

import argparse
import copy
import math
import os
import time
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    vocab_size: int = 8192
    max_len: int = 256
    image_size: int = 64
    patch_size: int = 8
    channels: int = 3
    width: int = 384
    depth: int = 6
    heads: int = 6
    mlp_ratio: float = 4.0
    dropout: float = 0.1
    drop_path: float = 0.05
    ema_decay: float = 0.996
    temperature: float = 0.07
    lr: float = 3e-4
    weight_decay: float = 0.05
    warmup_steps: int = 500
    total_steps: int = 20_000
    batch_size: int = 32
    grad_clip: float = 1.0
    log_every: int = 50
    out_dir: str = "runs/vlm"
    betas: tuple = field(default=(0.9, 0.95))


def drop_path(x: torch.Tensor, p: float, training: bool) -> torch.Tensor:
    if p == 0.0 or not training:
        return x
    keep = 1.0 - p
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    mask = x.new_empty(shape).bernoulli_(keep)
    return x * mask / keep


class DropPath(nn.Module):
    def __init__(self, p: float = 0.0):
        super().__init__()
        self.p = p

    def forward(self, x):
        return drop_path(x, self.p, self.training)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        scale = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * scale * self.weight


def rotary_tables(length: int, dim: int, base: float = 10000.0, device=None):
    inv = 1.0 / (base ** (torch.arange(0, dim, 2, device=device).float() / dim))
    t = torch.arange(length, device=device).float()
    freqs = torch.outer(t, inv)
    return freqs.cos(), freqs.sin()


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., ::2], x[..., 1::2]
    rotated = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
    return rotated.flatten(-2)


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float, causal: bool = False):
        super().__init__()
        assert dim % heads == 0, "width must divide into heads"
        self.heads = heads
        self.head_dim = dim // heads
        self.causal = causal
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)
        self.attn_drop = dropout
        self.proj_drop = nn.Dropout(dropout)

    def forward(self, x, rotary=None, mask=None):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        if rotary is not None:
            cos, sin = rotary
            q = apply_rotary(q, cos[:n], sin[:n])
            k = apply_rotary(k, cos[:n], sin[:n])
        out = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=mask,
            dropout_p=self.attn_drop if self.training else 0.0,
            is_causal=self.causal and mask is None,
        )
        out = out.transpose(1, 2).reshape(b, n, c)
        return self.proj_drop(self.proj(out))


class CrossAttention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim, bias=False)
        self.kv = nn.Linear(dim, 2 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)
        self.dropout = dropout

    def forward(self, x, context):
        b, n, c = x.shape
        m = context.shape[1]
        q = self.q(x).view(b, n, self.heads, c // self.heads).transpose(1, 2)
        k, v = self.kv(context).view(b, m, 2, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0)
        return self.proj(out.transpose(1, 2).reshape(b, n, c))


class SwiGLU(nn.Module):
    def __init__(self, dim: int, ratio: float, dropout: float):
        super().__init__()
        hidden = int(dim * ratio * 2 / 3)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(self.down(F.silu(self.gate(x)) * self.up(x)))


class Block(nn.Module):
    def __init__(self, cfg: Config, causal: bool, cross: bool, path_p: float):
        super().__init__()
        self.norm1 = RMSNorm(cfg.width)
        self.attn = Attention(cfg.width, cfg.heads, cfg.dropout, causal=causal)
        self.cross = CrossAttention(cfg.width, cfg.heads, cfg.dropout) if cross else None
        self.norm_c = RMSNorm(cfg.width) if cross else None
        self.norm2 = RMSNorm(cfg.width)
        self.mlp = SwiGLU(cfg.width, cfg.mlp_ratio, cfg.dropout)
        self.path = DropPath(path_p)

    def forward(self, x, rotary=None, context=None, mask=None):
        x = x + self.path(self.attn(self.norm1(x), rotary=rotary, mask=mask))
        if self.cross is not None and context is not None:
            x = x + self.path(self.cross(self.norm_c(x), context))
        x = x + self.path(self.mlp(self.norm2(x)))
        return x


class PatchEmbed(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.proj = nn.Conv2d(cfg.channels, cfg.width, cfg.patch_size, stride=cfg.patch_size)
        patches = (cfg.image_size // cfg.patch_size) ** 2
        self.pos = nn.Parameter(torch.zeros(1, patches + 1, cfg.width))
        self.cls = nn.Parameter(torch.zeros(1, 1, cfg.width))
        nn.init.trunc_normal_(self.pos, std=0.02)
        nn.init.trunc_normal_(self.cls, std=0.02)

    def forward(self, images):
        x = self.proj(images).flatten(2).transpose(1, 2)
        cls = self.cls.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1) + self.pos


class VisionEncoder(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.embed = PatchEmbed(cfg)
        rates = torch.linspace(0, cfg.drop_path, cfg.depth).tolist()
        self.blocks = nn.ModuleList(Block(cfg, causal=False, cross=False, path_p=p) for p in rates)
        self.norm = RMSNorm(cfg.width)

    def forward(self, images):
        x = self.embed(images)
        for block in self.blocks:
            x = block(x)
        return self.norm(x)


class TextDecoder(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.tokens = nn.Embedding(cfg.vocab_size, cfg.width)
        self.blocks = nn.ModuleList(
            Block(cfg, causal=True, cross=(i % 2 == 1), path_p=cfg.drop_path) for i in range(cfg.depth)
        )
        self.norm = RMSNorm(cfg.width)
        self.head = nn.Linear(cfg.width, cfg.vocab_size, bias=False)
        self.head.weight = self.tokens.weight
        cos, sin = rotary_tables(cfg.max_len, cfg.width // cfg.heads // 2 * 2 // 1)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, ids, image_tokens=None):
        x = self.tokens(ids)
        rotary = (self.cos, self.sin)
        for block in self.blocks:
            x = block(x, rotary=None, context=image_tokens)
        return self.head(self.norm(x))

    @torch.no_grad()
    def generate(self, ids, image_tokens, steps: int, temperature: float = 1.0, top_k: int = 50):
        for _ in range(steps):
            window = ids[:, -self.cfg.max_len:]
            logits = self(window, image_tokens)[:, -1, :] / temperature
            values, _ = torch.topk(logits, top_k)
            logits[logits < values[:, [-1]]] = -float("inf")
            probs = F.softmax(logits, dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            ids = torch.cat([ids, nxt], dim=1)
        return ids


class ProjectionHead(nn.Module):
    def __init__(self, dim: int, out: int = 256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


class VisionLanguageModel(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.vision = VisionEncoder(cfg)
        self.text = TextDecoder(cfg)
        self.image_proj = ProjectionHead(cfg.width)
        self.text_proj = ProjectionHead(cfg.width)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / cfg.temperature)))

    def forward(self, images, ids):
        image_tokens = self.vision(images)
        logits = self.text(ids[:, :-1], image_tokens)
        hidden = self.text.norm(self.text.tokens(ids)).mean(1)
        image_emb = self.image_proj(image_tokens[:, 0])
        text_emb = self.text_proj(hidden)
        return logits, image_emb, text_emb


def contrastive_loss(image_emb, text_emb, logit_scale):
    scale = logit_scale.exp().clamp(max=100)
    logits = scale * image_emb @ text_emb.t()
    target = torch.arange(logits.shape[0], device=logits.device)
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2


def caption_loss(logits, ids, pad_id: int = 0):
    target = ids[:, 1:]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=pad_id)


def distill_loss(student_emb, teacher_emb, temperature: float = 0.1):
    s = F.log_softmax(student_emb / temperature, dim=-1)
    t = F.softmax(teacher_emb / temperature, dim=-1)
    return F.kl_div(s, t, reduction="batchmean")


class EMATeacher:
    def __init__(self, model: nn.Module, decay: float):
        self.decay = decay
        self.model = copy.deepcopy(model).eval()
        for p in self.model.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model: nn.Module):
        for ema_p, p in zip(self.model.parameters(), model.parameters()):
            ema_p.mul_(self.decay).add_(p, alpha=1 - self.decay)

    @torch.no_grad()
    def embed(self, images, ids):
        _, image_emb, text_emb = self.model(images, ids)
        return image_emb, text_emb


class SyntheticPairs(Dataset):
    def __init__(self, cfg: Config, size: int = 1024, seed: int = 0):
        gen = torch.Generator().manual_seed(seed)
        self.images = torch.randn(size, cfg.channels, cfg.image_size, cfg.image_size, generator=gen)
        self.ids = torch.randint(1, cfg.vocab_size, (size, 32), generator=gen)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return self.images[i], self.ids[i]


def param_groups(model: nn.Module, weight_decay: float):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if p.ndim < 2 or name.endswith(".bias") or "norm" in name or "pos" in name:
            no_decay.append(p)
        else:
            decay.append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def lr_at(step: int, cfg: Config) -> float:
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.total_steps - cfg.warmup_steps)
    return cfg.lr * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))


class Meter:
    def __init__(self):
        self.totals = {}
        self.counts = {}

    def add(self, name: str, value: float, n: int = 1):
        self.totals[name] = self.totals.get(name, 0.0) + value * n
        self.counts[name] = self.counts.get(name, 0) + n

    def mean(self, name: str) -> float:
        return self.totals[name] / max(1, self.counts[name])

    def line(self) -> str:
        return "  ".join(f"{k} {self.mean(k):.4f}" for k in sorted(self.totals))

    def reset(self):
        self.totals.clear()
        self.counts.clear()


def train_step(model, teacher, batch, optimizer, scaler, cfg: Config, meter: Meter):
    images, ids = batch
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False):
        logits, image_emb, text_emb = model(images, ids)
        t_image, t_text = teacher.embed(images, ids)
        loss_cap = caption_loss(logits, ids)
        loss_con = contrastive_loss(image_emb, text_emb, model.logit_scale)
        loss_dis = distill_loss(image_emb, t_image) + distill_loss(text_emb, t_text)
        loss = loss_cap + loss_con + 0.5 * loss_dis
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
    scaler.step(optimizer)
    scaler.update()
    teacher.update(model)
    meter.add("loss", loss.item(), ids.shape[0])
    meter.add("caption", loss_cap.item(), ids.shape[0])
    meter.add("contrastive", loss_con.item(), ids.shape[0])
    meter.add("distill", loss_dis.item(), ids.shape[0])
    meter.add("grad_norm", float(norm))
    return loss.detach()


@torch.no_grad()
def evaluate(model, loader, max_batches: int = 10):
    model.eval()
    total, count, correct = 0.0, 0, 0
    for i, (images, ids) in enumerate(loader):
        if i >= max_batches:
            break
        logits, image_emb, text_emb = model(images, ids)
        total += caption_loss(logits, ids).item() * ids.shape[0]
        count += ids.shape[0]
        sims = image_emb @ text_emb.t()
        correct += (sims.argmax(1) == torch.arange(len(sims))).sum().item()
    model.train()
    return {"caption": total / max(1, count), "retrieval@1": correct / max(1, count)}


def save_checkpoint(path: str, model, teacher, optimizer, step: int, cfg: Config):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save(
        {
            "model": model.state_dict(),
            "teacher": teacher.model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "step": step,
            "config": cfg.__dict__,
        },
        path,
    )


def load_checkpoint(path: str, model, teacher, optimizer) -> int:
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    teacher.model.load_state_dict(state["teacher"])
    optimizer.load_state_dict(state["optimizer"])
    return int(state["step"])


def count_parameters(model: nn.Module) -> str:
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return f"{total / 1e6:.2f}M parameters ({trainable / 1e6:.2f}M trainable)"


def build(cfg: Config):
    model = VisionLanguageModel(cfg)
    teacher = EMATeacher(model, cfg.ema_decay)
    optimizer = torch.optim.AdamW(param_groups(model, cfg.weight_decay), lr=cfg.lr, betas=cfg.betas)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    return model, teacher, optimizer, scaler


def train(cfg: Config, resume: str | None = None, steps: int | None = None):
    torch.manual_seed(0)
    model, teacher, optimizer, scaler = build(cfg)
    print(count_parameters(model))
    data = SyntheticPairs(cfg)
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(SyntheticPairs(cfg, size=128, seed=1), batch_size=cfg.batch_size)
    step = load_checkpoint(resume, model, teacher, optimizer) if resume else 0
    meter = Meter()
    started = time.time()
    limit = steps if steps is not None else cfg.total_steps
    while step < limit:
        for batch in loader:
            for group in optimizer.param_groups:
                group["lr"] = lr_at(step, cfg)
            train_step(model, teacher, batch, optimizer, scaler, cfg, meter)
            step += 1
            if step % cfg.log_every == 0:
                rate = step / (time.time() - started)
                print(f"step {step}  {meter.line()}  {rate:.1f} it/s")
                meter.reset()
            if step % (cfg.log_every * 10) == 0:
                print("eval", evaluate(model, val_loader))
                save_checkpoint(os.path.join(cfg.out_dir, "last.pt"), model, teacher, optimizer, step, cfg)
            if step >= limit:
                break
    return model


def sample_captions(model, images, bos_id: int = 1, steps: int = 16):
    model.eval()
    with torch.no_grad():
        image_tokens = model.vision(images)
        ids = torch.full((images.shape[0], 1), bos_id, dtype=torch.long)
        out = model.text.generate(ids, image_tokens, steps)
    model.train()
    return out.tolist()


def linear_probe(model, loader, classes: int = 10, epochs: int = 3):
    features, labels = [], []
    with torch.no_grad():
        for images, ids in loader:
            features.append(model.vision(images)[:, 0])
            labels.append(ids[:, 0] % classes)
    x = torch.cat(features)
    y = torch.cat(labels)
    probe = nn.Linear(x.shape[1], classes)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    for _ in range(epochs):
        loss = F.cross_entropy(probe(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (probe(x).argmax(1) == y).float().mean().item()


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="train a small vision-language model")
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--resume", default=None)
    parser.add_argument("--width", type=int, default=Config.width)
    parser.add_argument("--depth", type=int, default=Config.depth)
    parser.add_argument("--lr", type=float, default=Config.lr)
    parser.add_argument("--batch-size", type=int, default=Config.batch_size)
    parser.add_argument("--out-dir", default=Config.out_dir)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    cfg = Config(width=args.width, depth=args.depth, lr=args.lr, batch_size=args.batch_size,
                 out_dir=args.out_dir)
    model = train(cfg, resume=args.resume, steps=args.steps)
    images = torch.randn(2, cfg.channels, cfg.image_size, cfg.image_size)
    print(sample_captions(model, images))


if __name__ == "__main__":
    main()
