"""
expect: none
dynamic: dismiss
source: kind 8

A sentiment model has an explicit config option: `if self.cfg.stop_grad:
feats = feats.detach()` (for linear-probe runs). The config object leaves it
off for fine-tuning. The asserts show that with the default config the
encoder gets gradients, changes and the loss falls; with stop_grad=True only
the head trains, as the option intends.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class SentimentConfig:
    vocab: int = 300
    dim: int = 32
    stop_grad: bool = False
    lr: float = 1e-2


class SentimentModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.EmbeddingBag(cfg.vocab, cfg.dim, mode="mean")
        self.encoder = nn.Sequential(nn.Linear(cfg.dim, cfg.dim), nn.GELU())
        self.head = nn.Linear(cfg.dim, 2)

    def forward(self, tokens):
        feats = self.encoder(self.embed(tokens))
        if self.cfg.stop_grad:
            feats = feats.detach()
        return self.head(feats)


def fit(cfg, steps=60):
    torch.manual_seed(14)
    model = SentimentModel(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    tokens = torch.randint(0, cfg.vocab, (64, 10))
    labels = (tokens < 30).any(dim=1).long()
    enc_before = model.encoder[0].weight.detach().clone()
    model.train()
    for step in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(tokens), labels)
        loss.backward()
        opt.step()
        first = loss.item() if step == 0 else first
    return model, enc_before, first, loss.item()


if __name__ == "__main__":
    model, enc_before, first, last = fit(SentimentConfig())
    assert model.encoder[0].weight.grad.abs().sum() > 0
    assert not torch.equal(model.encoder[0].weight, enc_before)
    assert last < 0.3 * first, (first, last)

    probe, enc_before, _, _ = fit(SentimentConfig(stop_grad=True))
    assert probe.encoder[0].weight.grad is None
    assert torch.equal(probe.encoder[0].weight, enc_before)
    print("ok: config-gated stop_grad is off by default; encoder trains")
