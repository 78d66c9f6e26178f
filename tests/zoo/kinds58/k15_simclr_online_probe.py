"""
expect: none
dynamic: dismiss
source: none, invented

SimCLR pretraining with an online linear probe, as many self-supervised codebases do to monitor
representation quality during training. OnlineLinearProbe.forward detaches its input before its
own BatchNorm + Linear, and is called on the encoder's output, which is trainable. Here that is the
intended design (the class docstring says so): the encoder has its own objective (NT-Xent on two
augmented views) and the probe's cross-entropy, which sees the labels, must not shape it. The
asserts check that the encoder and projector get non-zero gradients, that the encoder gradient of
ssl_loss + probe_loss equals the gradient of ssl_loss alone, that the probe's weights train, and
that probe accuracy rises above chance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.net(x)


class OnlineLinearProbe(nn.Module):
    """Linear classifier trained alongside SSL pretraining, for monitoring only.

    The input is detached on purpose: the probe measures what the representation already
    encodes, so its supervised loss must not push label information into the encoder, which
    is trained by the contrastive objective alone.
    """

    def __init__(self, dim, classes):
        super().__init__()
        self.bn = nn.BatchNorm1d(dim, affine=False)
        self.fc = nn.Linear(dim, classes)

    def forward(self, feats):
        feats = feats.detach()
        return self.fc(self.bn(feats))


def nt_xent(z1, z2, temperature=0.3):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    n = z1.shape[0]
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def make_images(n):
    labels = torch.randint(0, 4, (n,))
    yy, xx = torch.meshgrid(torch.arange(12.0), torch.arange(12.0), indexing="ij")
    patterns = torch.stack([torch.sin(xx / 1.5), torch.sin(yy / 1.5),
                            torch.sin((xx + yy) / 2.0), torch.cos(xx * yy / 20.0)])
    return patterns[labels].unsqueeze(1) + 0.3 * torch.randn(n, 1, 12, 12), labels


def augment(x):
    shift = torch.randint(-2, 3, (2,)).tolist()
    x = torch.roll(x, shifts=shift, dims=(2, 3))
    return x * (0.7 + 0.6 * torch.rand(x.shape[0], 1, 1, 1)) + 0.1 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    encoder = Encoder()
    projector = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32))
    probe = OnlineLinearProbe(32, 4)
    opt = torch.optim.Adam([*encoder.parameters(), *projector.parameters(), *probe.parameters()], lr=2e-3)
    fc_w0 = probe.fc.weight.detach().clone()

    def probe_acc():
        probe.eval()
        with torch.no_grad():
            x, y = make_images(512)
            acc = (probe(encoder(x)).argmax(1) == y).float().mean().item()
        probe.train()
        return acc

    acc0 = probe_acc()
    for step in range(80):
        x, y = make_images(64)
        v1, v2 = augment(x), augment(x)
        h1, h2 = encoder(v1), encoder(v2)
        ssl_loss = nt_xent(projector(h1), projector(h2))
        probe_loss = F.cross_entropy(probe(h1), y)
        if step == 0:
            g_ssl = torch.autograd.grad(ssl_loss, list(encoder.parameters()), retain_graph=True)
            g_all = torch.autograd.grad(ssl_loss + probe_loss, list(encoder.parameters()), retain_graph=True)
            assert all(torch.allclose(a, b) for a, b in zip(g_ssl, g_all))
            assert any(g.abs().sum() > 0 for g in g_ssl)
        opt.zero_grad()
        (ssl_loss + probe_loss).backward()
        assert encoder.net[0].weight.grad.abs().sum() > 0
        assert projector[0].weight.grad.abs().sum() > 0
        opt.step()
    acc = probe_acc()
    assert not torch.equal(fc_w0, probe.fc.weight)
    assert acc > 0.6 and acc > acc0, (acc0, acc)
    print("simclr online probe: ok, probe acc %.3f -> %.3f" % (acc0, acc))


if __name__ == "__main__":
    main()
