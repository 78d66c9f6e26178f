"""
expect: GL005 38
dynamic: confirm
source: https://github.com/kywind/self-corr-pose/issues/5

kywind/self-corr-pose issue #5: training the category-level pose/shape model crashed in
total_loss.backward() with "one of the variables needed for gradient computation has been modified
by an inplace operation: [torch.cuda.FloatTensor [32, 995, 3]] ... is at version 1; expected
version 0"; the reporter traced it to the shape predictor's re-centering line and fixed it by
writing shape_delta = shape_delta - shape_delta.mean(1, keepdims=True). This program rebuilds a
shape predictor that regresses bounded per-vertex offsets (tanh, whose backward needs its own
output), re-centers them in place with -=, deforms a category template and scores a Chamfer
distance. It asserts backward raises the in-place error, and that the out-of-place version trains
and lowers the Chamfer loss.
"""
import torch
import torch.nn as nn


def chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(2).values.mean() + d.min(1).values.mean()


class ShapePredictor(nn.Module):
    def __init__(self, n_verts=64, feat_dim=32, in_place_center=True):
        super().__init__()
        self.n_verts, self.in_place_center = n_verts, in_place_center
        self.encoder = nn.Sequential(nn.Linear(3, feat_dim), nn.ReLU(), nn.Linear(feat_dim, feat_dim))
        self.deform = nn.Linear(feat_dim, n_verts * 3)
        self.register_buffer("template", torch.randn(n_verts, 3) * 0.5)

    def forward(self, points):
        feat = self.encoder(points).max(1).values                 # PointNet-style global feature
        shape_delta = torch.tanh(self.deform(feat))               # bounded offsets in [-1, 1]
        shape_delta = shape_delta.view(-1, self.n_verts, 3)
        if self.in_place_center:
            shape_delta -= shape_delta.mean(1, keepdim=True)
        else:
            shape_delta = shape_delta - shape_delta.mean(1, keepdim=True)
        return self.template + 0.3 * shape_delta


def observed_points(batch=8, n=128):
    gen = torch.Generator().manual_seed(0)
    pts = torch.randn(batch, n, 3, generator=gen)
    return pts * torch.tensor([0.8, 0.4, 0.4])                    # elongated objects


def run(in_place_center, steps=30):
    torch.manual_seed(0)
    model = ShapePredictor(in_place_center=in_place_center)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    pts = observed_points()
    losses = []
    for _ in range(steps):
        loss = chamfer(model(pts), pts)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


try:
    run(in_place_center=True)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

losses = run(in_place_center=False)
assert losses[-1] < losses[0] * 0.9, (losses[0], losses[-1])
print("p12 ok: in-place re-centering of tanh offsets breaks backward; out-of-place trains")
