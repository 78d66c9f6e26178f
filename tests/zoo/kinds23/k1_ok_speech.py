"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 1 (written for this check)

A keyword-spotting trainer runs a pretrained conv frontend under torch.no_grad() and trains only a head on
its pooled features. The frontend's parameters sit in an AdamW that is only handed to a warm-up LambdaLR for a
later "unfreeze" stage which this run never reaches, so neither is stepped and the frontend is not starved.
The asserts show every head parameter gets a nonzero gradient and the frontend has no grads and never moves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WORDS = 5


class KeywordTrainer:
    def __init__(self, unfreeze_at=10_000):
        self.frontend = nn.Sequential(
            nn.Conv1d(1, 8, kernel_size=9, stride=4), nn.GELU(),
            nn.Conv1d(8, 16, kernel_size=5, stride=2), nn.GELU(),
        )
        self.head = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, N_WORDS))
        self.unfreeze_at = unfreeze_at
        # stage 2 (fine-tune frontend) is configured up front, but not reached in short runs
        self.frontend_opt = torch.optim.AdamW(self.frontend.parameters(), lr=1e-5)
        self.frontend_warmup = torch.optim.lr_scheduler.LambdaLR(
            self.frontend_opt, lambda e: min(1.0, (e + 1) / 10))
        self.head_opt = torch.optim.AdamW(self.head.parameters(), lr=1e-3)
        self.steps = 0

    def embed(self, wave):
        with torch.no_grad():
            fmap = self.frontend(wave.unsqueeze(1))
        return fmap.mean(dim=-1)

    def train_step(self, wave, labels):
        logits = self.head(self.embed(wave))
        loss = F.cross_entropy(logits, labels)
        self.head_opt.zero_grad()
        loss.backward()
        grads = [p.grad.abs().sum().item() for p in self.head.parameters()]
        self.head_opt.step()
        self.steps += 1
        return loss.item(), grads


torch.manual_seed(1)
trainer = KeywordTrainer()
frozen = [p.detach().clone() for p in trainer.frontend.parameters()]
for _ in range(4):
    waves = torch.randn(12, 400)
    labels = torch.randint(0, N_WORDS, (12,))
    loss, grads = trainer.train_step(waves, labels)
    assert all(g > 0 for g in grads), grads

assert trainer.steps < trainer.unfreeze_at
assert all(p.grad is None for p in trainer.frontend.parameters())
assert all(torch.equal(a, b) for a, b in zip(frozen, trainer.frontend.parameters()))
print("ok: head trains, frontend frozen (its optimizer is never stepped)")
