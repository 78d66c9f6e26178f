"""expect: GL005 29
dynamic: error
source: https://github.com/pytorch/pytorch/issues/5687

A content-weighted image-compression CNN used residual blocks whose left branch ends in
nn.ReLU(inplace=True) and then adds the shortcut with out += residual.  On PyTorch 0.3 the
model silently diverged (loss in the hundreds of thousands) until inplace=False was used;
the in-place add overwrites the ReLU output that ReLU's backward needs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, ch_in, ch_out, shortcut=None):
        super().__init__()
        self.left = nn.Sequential(
            nn.Conv2d(ch_in, 16, 3, 1, 1),
            nn.ReLU(inplace=True),
            nn.Conv2d(16, ch_out, 3, 1, 1),
            nn.ReLU(inplace=True),
        )
        self.right = shortcut

    def forward(self, x):
        out = self.left(x)
        residual = x if self.right is None else self.right(x)
        out += residual
        return F.relu(out, inplace=False)


class ContentWeightedCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.ReLU(inplace=True))
        self.res = nn.Sequential(ResidualBlock(8, 8), ResidualBlock(8, 8))
        self.tail = nn.Conv2d(8, 3, 3, 1, 1)

    def forward(self, x):
        return self.tail(self.res(self.head(x)))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ContentWeightedCNN()
    img = torch.rand(2, 3, 16, 16)
    loss = F.mse_loss(model(img), F.avg_pool2d(img, 2))
    try:
        loss.backward()
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
        print("backward raised:", str(e)[:90])
    else:
        raise AssertionError("expected the in-place add to break ReLU's backward")
