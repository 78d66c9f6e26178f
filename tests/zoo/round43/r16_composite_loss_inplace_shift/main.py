"""
expect: GL005 losses.py:28, GL005 losses.py:29
dynamic: confirm
source: https://github.com/PrielHaz/MRI-Compressed-Sensing/blob/HEAD/utils/myUtils.py

A compressed-sensing MRI reconstruction net is trained with a composite loss: MSE, then L1, then a structural
(MS-SSIM-like) term. The structural term first shifts both images so that every pixel is positive, and does it
with `inp += shift` and `target += shift`, in place on the views it was handed. By then MSE and L1 have already
saved the reconstruction and the target for their backward, so loss.backward() fails with "modified by an
inplace operation" (the original also switched on anomaly detection inside this loss while hunting it), and
the in-place shift also corrupts the caller's target batch. The asserts catch the RuntimeError and the shifted
target, then train the same model with an out-of-place shift and check the loss goes down.
"""
import torch
import torch.nn as nn

from losses import CompositeLoss, ShiftedCopyStructuralLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class ReconNet(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, 1, 3, padding=1),
        )

    def forward(self, undersampled):
        return (undersampled + self.net(undersampled)).squeeze(1)  # (B, H, W)


clean = torch.rand(4, 16, 16)
undersampled = (clean + 0.2 * torch.randn_like(clean)).unsqueeze(1)

model = ReconNet()
target = clean.clone()
loss = CompositeLoss()(model(undersampled), target)
try:
    loss.backward()
    raise AssertionError("expected the in-place shift to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
assert torch.allclose(target, clean + 10.0), "the loss shifted the caller's target batch"

model = ReconNet()
criterion = CompositeLoss(ShiftedCopyStructuralLoss())
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for _ in range(30):
    target = clean.clone()
    opt.zero_grad()
    loss = criterion(model(undersampled), target)
    loss.backward()
    opt.step()
    assert torch.equal(target, clean)
    history.append(loss.item())
assert history[-1] < history[0], history
print("in-place shift breaks backward; out-of-place shift trains:", round(history[0], 3), "->", round(history[-1], 3))
