"""
expect: GL005 main.py:32
dynamic: confirm
source: none, invented

Audio speech enhancement. A spectral-mask denoiser (`SpectralDenoiser`) runs the log-magnitude
spectrogram through `MaskStack` (blocks.py), whose forward applies the layers of an nn.ModuleList one
after another and ends with a Sigmoid. The denoiser then forces the lowest frequency bins of the returned
mask to 1.0 in place (`mask[..., :self.keep_low] = 1.0`) so that the rumble band passes through. But the
returned tensor is the Sigmoid's output, which Sigmoid saves for its backward, so the in-place write bumps
its version and loss.backward() raises "modified by an inplace operation". The asserts catch that error
on the buggy path and show that the fixed variant (building the pinned mask out of place with
torch.where) trains: the loss drops.
"""
import torch
import torch.nn as nn

from blocks import MaskStack


class SpectralDenoiser(nn.Module):
    def __init__(self, n_bins=33, keep_low=3, fixed=False):
        super().__init__()
        self.mask_net = MaskStack(n_bins)
        self.keep_low = keep_low
        self.fixed = fixed

    def forward(self, noisy_mag):
        feats = torch.log1p(noisy_mag)
        mask = self.mask_net(feats)
        if not self.fixed:
            mask[..., :self.keep_low] = 1.0
        else:
            bins = torch.arange(mask.shape[-1], device=mask.device)
            mask = torch.where(bins < self.keep_low, torch.ones_like(mask), mask)
        return mask * noisy_mag


def make_batch(n=16, frames=20, n_bins=33, seed=0):
    g = torch.Generator().manual_seed(seed)
    clean = torch.rand(n, frames, n_bins, generator=g) * 2.0
    noise = torch.rand(n, frames, n_bins, generator=g) * 0.7
    return clean + noise, clean


def train(model, steps=60):
    noisy, clean = make_batch()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        est = model(noisy)
        loss = nn.functional.mse_loss(est, clean)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    torch.manual_seed(0)
    buggy = SpectralDenoiser(fixed=False)
    try:
        train(buggy, steps=1)
        raised = None
    except RuntimeError as e:
        raised = str(e)
    assert raised is not None and "inplace operation" in raised, raised
    print("buggy denoiser: backward raised:", raised.splitlines()[0][:90])

    torch.manual_seed(0)
    fixed = SpectralDenoiser(fixed=True)
    losses = train(fixed)
    assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
    print(f"fixed denoiser trains: {losses[0]:.4f} -> {losses[-1]:.4f}")


if __name__ == "__main__":
    main()
