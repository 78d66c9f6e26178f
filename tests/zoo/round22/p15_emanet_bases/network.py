import torch
import torch.nn as nn
import torch.nn.functional as F


def l2norm(t, dim):
    return t / (1e-6 + t.norm(dim=dim, keepdim=True))


class EMAU(nn.Module):
    """Expectation-maximization attention unit with k global bases kept as a buffer."""

    def __init__(self, c, k=4):
        super().__init__()
        self.register_buffer("mu", l2norm(torch.randn(1, c, k), dim=1))
        self.conv1 = nn.Conv2d(c, c, 1)
        self.conv2 = nn.Conv2d(c, c, 1, bias=False)

    def forward(self, x):
        idn = x
        x = self.conv1(x)
        b, c, h, w = x.shape
        x = x.view(b, c, h * w)
        mu = self.mu.repeat(b, 1, 1)                      # b, c, k
        z = F.softmax(torch.bmm(x.permute(0, 2, 1), mu), dim=2)  # E-step
        z_ = z / (1e-6 + z.sum(dim=1, keepdim=True))
        mu = l2norm(torch.bmm(x, z_), dim=1)              # M-step
        x = mu.matmul(z.permute(0, 2, 1)).view(b, c, h, w)
        x = self.conv2(F.relu(x))
        return F.relu(x + idn), mu


class EMANet(nn.Module):
    def __init__(self, n_cls=3, c=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.emau = EMAU(c)
        self.cls = nn.Conv2d(c, n_cls, 1)

    def forward(self, img, lbl):
        feats, mu = self.emau(self.stem(img))
        loss = F.cross_entropy(self.cls(feats), lbl)
        return loss, mu
