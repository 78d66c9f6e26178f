"""
expect: GL001 51
dynamic: confirm
source: none, invented

Audio / keyword spotting. A small keyword spotter with a learnable
filterbank front end (a strided Conv1d over raw waveforms) followed by a GRU
classifier. The class follows a Lightning-like layout: `training_step` returns
the loss and a separate Trainer object owns the optimiser and calls backward.
The bug: `log_mel_features`, whose whole body is one `with torch.no_grad():`
block (it was written for the streaming demo), is reused by `training_step`,
so the learnable filterbank runs unrecorded and never receives a gradient from
the loss the trainer back-propagates; only the GRU and the classifier learn.
The asserts show the filterbank weights are identical after training and have
no .grad while the classifier changed, and that the fixed subclass, whose
features are recorded, does update the filterbank.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, max_steps=15, lr=5e-3):
        self.max_steps = max_steps
        self.lr = lr

    def fit(self, module, loader):
        opt = module.configure_optimizers(self.lr)
        module.train()
        for step, batch in enumerate(loader):
            if step >= self.max_steps:
                break
            opt.zero_grad()
            loss = module.training_step(batch, step)
            loss.backward()
            opt.step()
        return module


class KeywordSpotter(nn.Module):
    def __init__(self, n_filters=16, n_keywords=5):
        super().__init__()
        self.filterbank = nn.Conv1d(1, n_filters, kernel_size=64, stride=32)
        self.gru = nn.GRU(n_filters, 32, batch_first=True)
        self.classifier = nn.Linear(32, n_keywords)

    def log_mel_features(self, wav):
        with torch.no_grad():
            energies = self.filterbank(wav.unsqueeze(1)).pow(2)
            return torch.log1p(energies).transpose(1, 2)   # (B, T, F)

    def forward(self, feats):
        _, h = self.gru(feats)
        return self.classifier(h[-1])

    def training_step(self, batch, batch_idx):
        wav, label = batch
        logits = self(self.log_mel_features(wav))
        return F.cross_entropy(logits, label)

    def configure_optimizers(self, lr):
        return torch.optim.Adam(self.parameters(), lr=lr)


class KeywordSpotterFixed(KeywordSpotter):
    def log_mel_features(self, wav):
        energies = self.filterbank(wav.unsqueeze(1)).pow(2)
        return torch.log1p(energies).transpose(1, 2)


def random_loader(n=15, batch=8, length=1600, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(batch, length, generator=g), torch.randint(0, 5, (batch,), generator=g))
            for _ in range(n)]


def main():
    loader = random_loader()

    torch.manual_seed(0)
    kws = KeywordSpotter()
    before = copy.deepcopy(kws)
    Trainer().fit(kws, loader)
    assert torch.equal(kws.filterbank.weight, before.filterbank.weight)
    assert kws.filterbank.weight.grad is None
    assert not torch.equal(kws.classifier.weight, before.classifier.weight)

    torch.manual_seed(0)
    fixed = KeywordSpotterFixed()
    before_fixed = copy.deepcopy(fixed)
    Trainer().fit(fixed, loader)
    assert fixed.filterbank.weight.grad is not None
    assert not torch.equal(fixed.filterbank.weight, before_fixed.filterbank.weight)
    print("k02 ok: filterbank frozen by no_grad body; fixed variant trains it")


if __name__ == "__main__":
    main()
