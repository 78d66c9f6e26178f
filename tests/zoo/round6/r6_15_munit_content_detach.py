"""expect: none
dynamic: dismiss
source: https://github.com/eriklindernoren/PyTorch-GAN/issues/142

MUNIT generator update: each domain has an encoder that splits an image into a
content code and a style code, and a decoder. The content-reconstruction
losses compare the content code of a translated image with the original
content code, and the original code is passed as c_code_1.detach(). That is
an intended stop-gradient: the original code is the regression target, so it
should not be pulled toward the reconstruction. Both encoders and decoders
still receive gradients from this term and the others.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, style_dim=4):
        super().__init__()
        self.content = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.style = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Conv2d(8, style_dim, 1))

    def forward(self, x):
        return self.content(x), self.style(x)


class Decoder(nn.Module):
    def __init__(self, style_dim=4):
        super().__init__()
        self.mod = nn.Linear(style_dim, 16)
        self.out = nn.Conv2d(8, 3, 3, padding=1)

    def forward(self, content, style):
        gamma, beta = self.mod(style.flatten(1)).chunk(2, dim=1)
        h = F.instance_norm(content) * (1 + gamma[..., None, None]) + beta[..., None, None]
        return torch.tanh(self.out(F.relu(h)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, 1, 1))

    def compute_loss(self, x, target):
        return torch.mean((self.net(x) - target) ** 2)


def generator_step(nets, optimizer_G, X1, X2, style_dim=4, lambda_id=10.0):
    Enc1, Dec1, Enc2, Dec2, D1, D2 = nets
    criterion_recon = nn.L1Loss()
    style_1 = torch.randn(X1.size(0), style_dim, 1, 1)
    style_2 = torch.randn(X1.size(0), style_dim, 1, 1)

    optimizer_G.zero_grad()
    c_code_1, s_code_1 = Enc1(X1)
    c_code_2, s_code_2 = Enc2(X2)
    X11, X22 = Dec1(c_code_1, s_code_1), Dec2(c_code_2, s_code_2)
    X21, X12 = Dec1(c_code_2, style_1), Dec2(c_code_1, style_2)
    c_code_21, s_code_21 = Enc1(X21)
    c_code_12, s_code_12 = Enc2(X12)

    loss_GAN = D1.compute_loss(X21, 1.0) + D2.compute_loss(X12, 1.0)
    loss_ID = lambda_id * (criterion_recon(X11, X1) + criterion_recon(X22, X2))
    loss_s = criterion_recon(s_code_12, style_2) + criterion_recon(s_code_21, style_1)
    loss_c_1 = criterion_recon(c_code_12, c_code_1.detach())
    loss_c_2 = criterion_recon(c_code_21, c_code_2.detach())
    loss_G = loss_GAN + loss_ID + loss_s + loss_c_1 + loss_c_2
    loss_G.backward()
    optimizer_G.step()
    return loss_c_1


if __name__ == "__main__":
    torch.manual_seed(0)
    nets = [Encoder(), Decoder(), Encoder(), Decoder(), Discriminator(), Discriminator()]
    gen_params = [p for net in nets[:4] for p in net.parameters()]
    optimizer_G = torch.optim.Adam(gen_params, lr=1e-4)
    X1, X2 = torch.rand(2, 3, 16, 16) * 2 - 1, torch.rand(2, 3, 16, 16) * 2 - 1
    loss_c_1 = generator_step(nets, optimizer_G, X1, X2)
    assert loss_c_1.requires_grad
    for net in nets[:4]:
        for p in net.parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0
    print("OK: detached content target is an intended stop-gradient; all generators train")
