"""
expect: GL002 spherical.py:12, GL005 main.py:57
dynamic: confirm
source: https://github.com/Marijndl/5ARIP10-team-project/blob/e5684905d28f3c85517d8333994fea0fb9ffb083/main.py

2D/3D coronary-artery registration (CTA centerline vs. its 2D angiographic projection):
a small 1-D conv network predicts a (theta, phi) deformation for every segment of the 3D
centerline, the deformation is added to the spherical coordinates, the centerline is
converted back to Cartesian points, projected (z = 0) and compared with the 2D
centerline (mean point distance). The conversion helper builds each step vector with
`torch.tensor([[r*sin(theta)*cos(phi)], ...])` from 0-d tensors, which copies the numbers
and drops their history, so the loss does not depend on the predicted deformation. The
loss still backpropagates without an error because the accumulator is seeded with
`torch.tensor([], requires_grad=True)`. A second fault hides behind the first: the loss
adds the deformation in place into the batch's `shape_3D`, the very tensor the network's
first Conv1d saved for backward. The asserts show (1) no network weight gets a gradient or
moves over several optimizer steps, (2) with the vectorised conversion (torch.stack +
cumsum) backward now reaches the convolution and fails with "modified by an inplace
operation", and (3) adding the deformation to a copy of the shapes, as the project later
did, lets the network receive a gradient.
"""
import warnings

import torch
import torch.nn as nn

from spherical import convert_back_tensors, convert_back_vectorized

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")

N_SEG = 12


class CARNet(nn.Module):
    def __init__(self, n_seg=N_SEG):
        super().__init__()
        self.enc3d = nn.Sequential(nn.Conv1d(3, 8, 3, padding=1), nn.ReLU())
        self.enc2d = nn.Sequential(nn.Conv1d(3, 8, 3, padding=1), nn.ReLU())
        self.dec = nn.Conv1d(16, 2, 3, padding=1)

    def forward(self, origin_3D, shape_3D, origin_2D, shape_2D):
        h = torch.cat((self.enc3d(shape_3D), self.enc2d(shape_2D)), dim=1)
        return 0.1 * torch.tanh(self.dec(h))


class mPD_loss(nn.Module):
    def __init__(self, convert=convert_back_tensors, copy_shapes=False):
        super().__init__()
        self.convert = convert
        self.copy_shapes = copy_shapes

    def forward(self, origin_3D, spherical_3D, origin_2D, spherical_2D, deformation_field):
        deformed = torch.tensor([], requires_grad=True)
        original = torch.tensor([], requires_grad=True)
        if self.copy_shapes:
            spherical_3D = spherical_3D.clone()
        spherical_3D[:, 1:, :] += deformation_field
        for idx in range(deformation_field.shape[0]):
            cartesian_2D = self.convert(origin_2D[idx], spherical_2D[idx])
            cartesian_3D = self.convert(origin_3D[idx], spherical_3D[idx])
            cartesian_3D[2, :] = torch.zeros(cartesian_3D.shape[1])
            original = torch.cat((original, cartesian_2D.unsqueeze(dim=0)), dim=0)
            deformed = torch.cat((deformed, cartesian_3D.unsqueeze(dim=0)), dim=0)
        return torch.sum(torch.mean(torch.sum(torch.abs(deformed - original), dim=1), dim=1))


def make_batch(bs=4):
    def shape():
        return torch.stack((torch.rand(bs, N_SEG) + 0.5,
                            torch.rand(bs, N_SEG) * 3.0,
                            torch.rand(bs, N_SEG) * 6.0), dim=1)
    shape_2D = shape()
    shape_2D[:, 1] = torch.pi / 2
    return {"origin_3D": torch.rand(bs, 3, 1), "shape_3D": shape(),
            "origin_2D": torch.rand(bs, 3, 1), "shape_2D": shape_2D}


torch.manual_seed(0)
torch.set_num_threads(1)
batches = [make_batch() for _ in range(3)]

model = CARNet()
criterion = mPD_loss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
before = [p.detach().clone() for p in model.parameters()]
for epoch in range(2):
    for batch in batches:
        inp = {k: v.clone() for k, v in batch.items()}
        optimizer.zero_grad()
        outputs = model(inp["origin_3D"], inp["shape_3D"], inp["origin_2D"], inp["shape_2D"])
        loss = criterion(inp["origin_3D"], inp["shape_3D"], inp["origin_2D"], inp["shape_2D"], outputs)
        loss.backward()
        optimizer.step()
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

def run_once(criterion):
    inp = {k: v.clone() for k, v in batches[0].items()}
    model.zero_grad(set_to_none=True)
    outputs = model(inp["origin_3D"], inp["shape_3D"], inp["origin_2D"], inp["shape_2D"])
    loss = criterion(inp["origin_3D"], inp["shape_3D"], inp["origin_2D"], inp["shape_2D"], outputs)
    loss.backward()


try:
    run_once(mPD_loss(convert_back_vectorized))
    raise AssertionError("in-place edit of the saved shape tensor went unnoticed")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

run_once(mPD_loss(convert_back_vectorized, copy_shapes=True))
assert model.dec.weight.grad is not None and model.dec.weight.grad.abs().sum() > 0
assert model.enc3d[0].weight.grad.abs().sum() > 0
print("rebuilt steps freeze CAR-Net; with a differentiable conversion and a copied shape tensor it trains")
