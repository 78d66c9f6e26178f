"""
expect: GL001 posterior.py:4
dynamic: confirm
source: https://github.com/scverse/scvi-tools/issues/214

The report: scvi's trainer module called torch.set_grad_enabled(False) at import time, which silently
breaks any torch code that builds graphs after `import scvi.inference`. Here a posterior-summary module
does the same; the trainer imports it lazily in its end-of-epoch callback. From the next epoch on every
loss is computed with grad mode off, the trainer's guard skips batches whose loss carries no graph, and
training silently stops: the asserts show weights move in epoch 0, torch.is_grad_enabled() is False
after the callback, the epoch-1 losses have requires_grad False and the weights never change again.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(12, 6), nn.Tanh(), nn.Linear(6, 3))
        self.dec = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 12))

    def forward(self, x):
        return self.dec(self.enc(x))


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.summaries = []
        self.skipped = 0

    def train_step(self, x):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), x)
        if not loss.requires_grad:
            # batches whose loss has no graph (e.g. fully masked) are skipped
            self.skipped += 1
            return loss.item()
        loss.backward()
        self.opt.step()
        return loss.item()

    def on_epoch_end(self, x):
        import posterior  # only needed for the summary, imported lazily

        mu, sd = posterior.latent_summary(self.model.enc, x)
        self.summaries.append((mu, sd))


torch.manual_seed(0)
data = torch.randn(64, 12)
trainer = Trainer(AutoEncoder())

w0 = trainer.model.enc[0].weight.detach().clone()
for batch in data.split(16):
    trainer.train_step(batch)
w1 = trainer.model.enc[0].weight.detach().clone()
assert not torch.equal(w0, w1), "epoch 0 should train"

trainer.on_epoch_end(data)
assert not torch.is_grad_enabled()

for batch in data.split(16):
    trainer.train_step(batch)
w2 = trainer.model.enc[0].weight.detach().clone()
assert trainer.skipped == 4
assert torch.equal(w1, w2), "after the import nothing trains any more"
assert not F.mse_loss(trainer.model(data), data).requires_grad

# restoring grad mode makes the same trainer learn again
torch.set_grad_enabled(True)
trainer.train_step(data)
assert not torch.equal(w2, trainer.model.enc[0].weight)
print("ok: grad mode switched off by an import silently stopped training")
