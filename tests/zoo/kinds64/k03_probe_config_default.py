"""
expect: GL001 44
dynamic: confirm
source: none, invented

A sequence classifier is built from a TrainConfig dataclass. The flag linear_probe (default True, left over
from an evaluation run) is passed to the model, whose forward then cuts the encoder's pooled features off the
graph before the classification head. The script uses TrainConfig() as-is and builds AdamW over
model.parameters(), so the encoder sits in the optimizer and is meant to be fine-tuned, yet it never receives a
gradient: only the head learns. The asserts show the encoder's grads are None and its weights unchanged under
the default config, while TrainConfig(linear_probe=False) gives the encoder gradients and moves its weights.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class TrainConfig:
    vocab_size: int = 50
    hidden: int = 32
    num_classes: int = 3
    lr: float = 3e-3
    steps: int = 30
    linear_probe: bool = True


class SeqClassifier(nn.Module):
    def __init__(self, vocab_size, hidden, num_classes, linear_probe=False):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, num_classes)
        self.linear_probe = linear_probe

    def forward(self, tokens):
        out, _ = self.encoder(self.embed(tokens))
        pooled = out.mean(dim=1)
        if self.linear_probe:
            pooled = pooled.detach()
        return self.head(pooled)


def run(cfg):
    torch.manual_seed(0)
    tokens = torch.randint(0, cfg.vocab_size, (64, 12))
    labels = tokens[:, 0] % cfg.num_classes
    model = SeqClassifier(cfg.vocab_size, cfg.hidden, cfg.num_classes, linear_probe=cfg.linear_probe)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    enc_before = model.encoder.weight_ih_l0.detach().clone()
    head_before = model.head.weight.detach().clone()
    for _ in range(cfg.steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(tokens), labels)
        loss.backward()
        opt.step()
    enc_grad = model.encoder.weight_ih_l0.grad
    enc_moved = not torch.equal(enc_before, model.encoder.weight_ih_l0)
    head_moved = not torch.equal(head_before, model.head.weight)
    return enc_grad, enc_moved, head_moved


if __name__ == "__main__":
    cfg = TrainConfig()
    enc_grad, enc_moved, head_moved = run(cfg)
    assert enc_grad is None and not enc_moved, "encoder should be cut off under the default config"
    assert head_moved

    enc_grad, enc_moved, head_moved = run(TrainConfig(linear_probe=False))
    assert enc_grad is not None and enc_grad.abs().sum() > 0 and enc_moved and head_moved
    print("ok: default config freezes the encoder by accident; linear_probe=False trains it")
