"""
expect: none
dynamic: dismiss
source: kind 2

A denoising image model owns an encoder-decoder and a small noise-level regressor plus one
optimizer for each. One forward returns the reconstruction loss (through the encoder-decoder)
and a noise-level loss computed from the encoder code after .detach(). The update method
backpropagates the first loss, steps the encoder-decoder optimizer, then backpropagates the
second loss; its graph only touches the regressor, so no saved tensor was modified and both
parts train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyImageModel(nn.Module):
    def __init__(self, pixels=64, code=16):
        super().__init__()
        self.codec = nn.Sequential(nn.Linear(pixels, code), nn.ReLU(), nn.Linear(code, pixels))
        self.level_head = nn.Sequential(nn.Linear(code, 8), nn.ReLU(), nn.Linear(8, 1))
        self.codec_opt = torch.optim.Adam(self.codec.parameters(), lr=1e-2)
        self.level_opt = torch.optim.Adam(self.level_head.parameters(), lr=1e-2)

    def losses(self, clean, sigma):
        noisy = clean + sigma * torch.randn_like(clean)
        code = self.codec[1](self.codec[0](noisy))
        recon = self.codec[2](code)
        recon_loss = F.mse_loss(recon, clean)
        level_loss = F.mse_loss(self.level_head(code.detach()), sigma)
        return recon_loss, level_loss

    def update(self, recon_loss, level_loss):
        self.codec_opt.zero_grad()
        recon_loss.backward()
        self.codec_opt.step()
        self.level_opt.zero_grad()
        level_loss.backward()
        self.level_opt.step()


def main():
    torch.manual_seed(0)
    clean = torch.rand(32, 64)
    sigma = torch.rand(32, 1) * 0.5
    model = NoisyImageModel()
    codec_before = model.codec[0].weight.clone()
    head_before = model.level_head[0].weight.clone()
    for _ in range(3):
        model.update(*model.losses(clean, sigma))
    assert not torch.equal(model.codec[0].weight, codec_before)
    assert not torch.equal(model.level_head[0].weight, head_before)
    print("ok: both sub-networks trained")


if __name__ == "__main__":
    main()
