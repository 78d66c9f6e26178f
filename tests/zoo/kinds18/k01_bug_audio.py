"""
expect: GL002 26
dynamic: confirm
source: kind 1

A two-band loudness equaliser keeps a trainable log-gain for the high band,
but band_gains() packs the per-band gains with
torch.tensor([1.0, self.log_gain.exp()]), which copies the value out of the
graph. The asserts show log_gain.grad stays None and the parameter never moves
while the spectral floor (the other parameter) trains, and that the same model
built with torch.stack gets a gradient and learns the target gain.
"""
import torch
import torch.nn as nn


class TwoBandEqualiser(nn.Module):
    def __init__(self, n_fft=64):
        super().__init__()
        self.n_bins = n_fft // 2 + 1
        self.split = self.n_bins // 2
        self.log_gain = nn.Parameter(torch.zeros(()))
        self.floor = nn.Parameter(torch.zeros(self.n_bins))

    def band_gains(self):
        return torch.tensor([1.0, self.log_gain.exp()])

    def forward(self, spec):
        # spec: (batch, bins, frames) magnitude spectrogram
        gains = self.band_gains()
        band = (torch.arange(self.n_bins) >= self.split).long()
        return spec * gains[band].view(1, -1, 1) + self.floor.view(1, -1, 1)


class StackedEqualiser(TwoBandEqualiser):
    def band_gains(self):
        return torch.stack([torch.ones(()), self.log_gain.exp()])


def fit(model, steps=150):
    gen = torch.Generator().manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    true_gain = torch.ones(model.n_bins)
    true_gain[model.split:] = 2.5
    for _ in range(steps):
        spec = torch.rand(8, model.n_bins, 10, generator=gen)
        target = spec * true_gain.view(1, -1, 1)
        loss = (model(spec) - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    buggy = TwoBandEqualiser()
    floor0 = buggy.floor.detach().clone()
    fit(buggy)
    assert buggy.log_gain.grad is None
    assert buggy.log_gain.item() == 0.0
    assert not torch.equal(buggy.floor.detach(), floor0)  # the rest trains

    fixed = StackedEqualiser()
    fit(fixed)
    assert fixed.log_gain.grad is not None
    assert abs(fixed.log_gain.exp().item() - 2.5) < 0.3, fixed.log_gain.exp()
    print("ok: log_gain frozen via torch.tensor, learns via torch.stack")
