"""
expect: GL005 47
dynamic: confirm
source: https://github.com/qianyu-dlut/MVANet/issues/2

The report: `python train.py` for MVANet (multi-view aggregation network for dichotomous
image segmentation) failed in backward with "one of the variables needed for gradient
computation has been modified by an inplace operation: [...], which is output 0 of
ReluBackward0". The reporter traced it to the model's constructor, which walks its modules
and sets `m.inplace = True` on every nn.ReLU and nn.Dropout: in the transformer refinement
blocks the in-place dropout then overwrites the ReLU output that ReLU saved for its
backward. This program rebuilds a small patch-token segmentation refiner (attention block +
ReLU/Dropout feed-forward) with the same constructor loop. The asserts show the first
backward raises the in-place error, and the same model without the loop trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RefineBlock(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.linear1, self.linear2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.activation = nn.ReLU()
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        x = self.norm1(x + self.attn(x, x, x, need_weights=False)[0])
        return self.norm2(x + self.linear2(self.dropout(self.activation(self.linear1(x)))))


class MultiViewRefiner(nn.Module):
    def __init__(self, patch=4, d=16, make_inplace=True):
        super().__init__()
        self.patch = patch
        self.embed = nn.Conv2d(3, d, patch, stride=patch)
        self.blocks = nn.Sequential(RefineBlock(d), RefineBlock(d))
        self.head = nn.Conv2d(d, 1, 1)
        if make_inplace:
            for m in self.modules():
                if isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout):
                    m.inplace = True

    def forward(self, img):
        f = self.embed(img)                               # (B, d, H/p, W/p)
        b, d, h, w = f.shape
        tok = self.blocks(f.flatten(2).transpose(1, 2))
        f = tok.transpose(1, 2).reshape(b, d, h, w)
        return F.interpolate(self.head(f), scale_factor=self.patch, mode="bilinear")


def batch(b=4):
    img = torch.rand(b, 3, 16, 16)
    mask = (img.mean(1, keepdim=True) > 0.5).float()
    return img, mask


def train(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for _ in range(steps):
        img, mask = batch()
        loss = F.binary_cross_entropy_with_logits(model(img), mask)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    try:
        train(MultiViewRefiner(make_inplace=True))
        raise AssertionError("expected the in-place dropout to clobber the saved ReLU output")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    fixed = MultiViewRefiner(make_inplace=False)
    w0 = fixed.blocks[0].linear1.weight.detach().clone()
    train(fixed)
    assert not torch.equal(fixed.blocks[0].linear1.weight.detach(), w0)
    print("OK: m.inplace = True on ReLU/Dropout breaks backward; default modules train")
