"""expect: GL003 33
dynamic: confirm
source: kinds8 (kind C)

The enhancer's spectrogram estimate is detached and then has requires_grad switched
on before the loss/backward, so only the noise-scale parameter is trained.
"""
import torch
import torch.nn as nn


class SpecEnhancer(nn.Module):
    def __init__(self, n_bins=16):
        super().__init__()
        self.conv = nn.Conv1d(n_bins, n_bins, 3, padding=1)
        self.mask = nn.Conv1d(n_bins, n_bins, 1)

    def forward(self, spec):
        return spec * torch.sigmoid(self.mask(torch.relu(self.conv(spec))))


def main():
    torch.manual_seed(0)
    enhancer = SpecEnhancer()
    log_noise = nn.Parameter(torch.zeros(1))
    opt = torch.optim.Adam(list(enhancer.parameters()) + [log_noise], lr=1e-3)

    clean = torch.rand(2, 16, 30)
    noisy = clean + 0.2 * torch.rand_like(clean)

    opt.zero_grad()
    est = enhancer(noisy).detach()
    est.requires_grad_()
    err = ((est - clean) ** 2).mean()
    loss = err * torch.exp(-log_noise) + log_noise
    loss.backward()
    opt.step()

    assert log_noise.grad is not None
    assert enhancer.conv.weight.grad is None
    assert enhancer.mask.weight.grad is None
    print("OK")


if __name__ == "__main__":
    main()
