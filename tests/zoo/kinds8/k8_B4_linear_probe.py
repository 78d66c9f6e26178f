"""expect: none
dynamic: dismiss
source: kinds8 (kind B)

Only the frozen backbone runs under no_grad; the trainable bottleneck and fc are
called after the block, so every optimised parameter gets a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearProbeClassifier(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.backbone.requires_grad_(False)
        self.bottleneck = nn.Linear(8, 8)
        self.fc = nn.Linear(8, n_cls)

    def forward(self, img):
        with torch.no_grad():
            feats = self.backbone(img)
        return self.fc(torch.relu(self.bottleneck(feats)))


def main():
    torch.manual_seed(0)
    clf = LinearProbeClassifier()
    trainable = [w for w in clf.parameters() if w.requires_grad]
    opt = torch.optim.SGD(trainable, lr=0.1)
    img = torch.randn(4, 3, 12, 12)
    labels = torch.randint(0, 5, (4,))
    opt.zero_grad()
    loss = F.cross_entropy(clf(img), labels)
    loss.backward()
    opt.step()
    for w in trainable:
        assert w.grad is not None
    for w in clf.backbone.parameters():
        assert w.grad is None
    print("OK")


if __name__ == "__main__":
    main()
