"""
expect: none
dynamic: dismiss
source: none, invented

Image-quality regression on top of a frozen feature extractor (the usual "pretrained backbone,
train only the head" setup). The encoder is put in eval mode with requires_grad_(False), and the
QualityHead module starts its forward with feats = feats.detach() before its own MLP, so it can
also be fed cached features. Its input comes from the frozen encoder, whose parameters are not in
the optimizer and are meant to stay fixed, so the detach removes no gradient anyone needs. The
asserts check that the head's loss falls and its layers get non-zero gradients, and that the
encoder weights never get a gradient and are bit-identical after training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEncoder(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 4, stride=4)
        self.mix = nn.Sequential(nn.Conv2d(width, width, 3, padding=1, groups=width), nn.GELU(),
                                 nn.Conv2d(width, width, 1))
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, img):
        h = self.stem(img)
        h = h + self.mix(h)
        return torch.cat([self.pool(h).flatten(1), h.flatten(2).std(-1)], 1)


class QualityHead(nn.Module):
    def __init__(self, in_dim=48, hidden=64):
        super().__init__()
        self.norm = nn.LayerNorm(in_dim)
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, feats):
        feats = feats.detach()
        return self.fc2(F.gelu(self.fc1(self.norm(feats)))).squeeze(-1)


def degraded_images(n):
    clean = torch.rand(n, 3, 16, 16).cumsum(-1) / 16
    noise_level = torch.rand(n)
    blur = torch.rand(n) < 0.5
    img = clean + noise_level[:, None, None, None] * torch.randn_like(clean) * 0.5
    smoothed = F.avg_pool2d(img, 3, stride=1, padding=1)
    img = torch.where(blur[:, None, None, None], smoothed, img)
    score = 1.0 - noise_level - 0.3 * blur.float()
    return img, score


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    encoder = PatchEncoder().eval().requires_grad_(False)
    enc_w0 = {k: v.clone() for k, v in encoder.state_dict().items()}
    head = QualityHead()
    opt = torch.optim.Adam(head.parameters(), lr=3e-3)
    val_img, val_score = degraded_images(256)

    def val_mse():
        with torch.no_grad():
            return F.mse_loss(head(encoder(val_img)), val_score).item()

    start = val_mse()
    for _ in range(150):
        img, score = degraded_images(64)
        loss = F.mse_loss(head(encoder(img)), score)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert head.fc1.weight.grad.abs().sum() > 0 and head.norm.weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in encoder.parameters())
    assert all(torch.equal(enc_w0[k], v) for k, v in encoder.state_dict().items())
    end = val_mse()
    assert end < 0.5 * start, (start, end)
    print("frozen probe head: ok, val mse %.4f -> %.4f" % (start, end))


if __name__ == "__main__":
    main()
