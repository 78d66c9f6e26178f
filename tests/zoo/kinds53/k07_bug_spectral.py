"""
expect: GL001 26
dynamic: confirm
source: kinds check 53, kind 4

Audio-frame classifier: SpectralFeatures stores F.softplus as a plain function
attribute and also holds an nn.Linear band mixer; its output goes through
self.squash and is returned .detach()ed, so the mixer (handed to the optimizer
via model.parameters()) never receives a gradient and never trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SpectralFeatures(nn.Module):
    def __init__(self, n_bins):
        super().__init__()
        self.squash = F.softplus
        self.mixer = nn.Linear(n_bins, n_bins)

    def forward(self, frames):
        bands = self.squash(self.mixer(frames))
        return bands.detach()


class FrameClassifier(nn.Module):
    def __init__(self, n_bins, n_cls):
        super().__init__()
        self.features = SpectralFeatures(n_bins)
        self.head = nn.Linear(n_bins, n_cls)

    def forward(self, frames):
        return self.head(self.features(frames))


def fit(model, x, y, steps=20):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()


def main():
    x, y = torch.randn(128, 24), torch.randint(0, 4, (128,))
    model = FrameClassifier(24, 4)
    head0 = model.head.weight.detach().clone()
    feat0 = [p.detach().clone() for p in model.features.parameters()]
    fit(model, x, y)
    assert not torch.equal(head0, model.head.weight)
    feat_params = list(model.features.parameters())
    if feat_params:  # bug: the mixer is frozen by the detach
        assert all(p.grad is None for p in feat_params)
        assert all(torch.equal(a, b) for a, b in zip(feat0, feat_params))
        # intended version: without detach the mixer trains
        fx = model.features
        out = model.head(fx.squash(fx.mixer(x)))
        F.cross_entropy(out, y).backward()
        assert fx.mixer.weight.grad is not None and fx.mixer.weight.grad.abs().sum() > 0
        print("ok: mixer never trained")
    else:
        print("ok: function-only front end, head trained")


if __name__ == "__main__":
    main()
