"""
expect: none
dynamic: dismiss
source: none, invented

SimSiam-style self-supervised pretraining of a small conv encoder on noisy, randomly shifted 12x12 blobs. The
model has a helper method targets() that returns `self.projector(self.backbone(x)).detach()`, the
stop-gradient side of the symmetric loss. That detached copy is only ever used as the target; the same
projector output, with its graph, goes through the predictor in forward() and into the loss, so the projector
and backbone still get gradients from both views. The asserts show the projector, backbone and predictor all
receive non-zero gradients, the targets carry no graph, and the negative-cosine loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SiameseNet(nn.Module):
    def __init__(self, dim=32, pred_dim=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.projector = nn.Sequential(nn.Linear(32, dim), nn.BatchNorm1d(dim), nn.ReLU(), nn.Linear(dim, dim))
        self.predictor = nn.Sequential(nn.Linear(dim, pred_dim), nn.ReLU(), nn.Linear(pred_dim, dim))

    def forward(self, x):
        return self.predictor(self.projector(self.backbone(x)))

    def targets(self, x):
        return self.projector(self.backbone(x)).detach()


def blobs(n=64):
    yy, xx = torch.meshgrid(torch.arange(12.0), torch.arange(12.0), indexing="ij")
    cy, cx = torch.rand(n, 1, 1) * 6 + 3, torch.rand(n, 1, 1) * 6 + 3
    width = torch.rand(n, 1, 1) * 2 + 1
    return torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * width ** 2)).unsqueeze(1)


def augment(x):
    shift = torch.randint(-2, 3, (2,))
    x = torch.roll(x, shifts=(int(shift[0]), int(shift[1])), dims=(2, 3))
    return x * (0.8 + 0.4 * torch.rand(x.size(0), 1, 1, 1)) + 0.05 * torch.randn_like(x)


def neg_cosine(p, z):
    return -F.cosine_similarity(p, z, dim=-1).mean()


def main():
    net = SiameseNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for step in range(200):
        images = blobs()
        v1, v2 = augment(images), augment(images)
        p1, p2 = net(v1), net(v2)
        z1, z2 = net.targets(v1), net.targets(v2)
        loss = 0.5 * (neg_cosine(p1, z2) + neg_cosine(p2, z1))
        opt.zero_grad()
        loss.backward()
        if step == 0:
            assert not z1.requires_grad and z1.grad_fn is None
            for module in (net.projector, net.backbone, net.predictor):
                assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in module.parameters())
        opt.step()
        losses.append(loss.item())
    early, late = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
    assert late < early - 0.1, (early, late)
    print(f"k15: negative cosine {early:.3f} -> {late:.3f}")


if __name__ == "__main__":
    main()
