"""
expect: none
dynamic: dismiss
source: https://github.com/zhanglichao/updatenet/blob/bb205054c59aca02faa355d0cb5322c54b75b7eb/templates_generate/train_updateNet.py

UpdateNet learns how a Siamese tracker should update its template. Training is two-stage: a frozen
tracker backbone first runs over the videos and the initial, accumulated and current-frame templates are
saved as NumPy arrays; UpdateNet is then trained on tensors rebuilt from those arrays
(torch.Tensor(np.concatenate(...))), predicting the next ground-truth template with a residual
connection added in place (response += x0) after a ReLU(inplace=True) block. Rebuilding tensors from NumPy
and the in-place residual look like a cut graph and an edit of a saved tensor, but the rebuilt arrays are
only inputs (the backbone is frozen and not optimized), and the in-place add hits a conv output that no
recorded op saved. The asserts check that UpdateNet gets gradients and its loss falls, and that the
backbone is untouched.
"""
import numpy as np
import torch
import torch.nn as nn


class SiameseBackbone(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, c, 3), nn.ReLU(), nn.Conv2d(c, c, 3))

    def forward(self, z):
        return self.features(z)


class UpdateResNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.update = nn.Sequential(nn.Conv2d(3 * c, 16, 1), nn.ReLU(inplace=True), nn.Conv2d(16, c, 1))

    def forward(self, x, x0):
        response = self.update(x)
        response += x0
        return response


torch.manual_seed(0)
torch.set_num_threads(1)
backbone = SiameseBackbone().eval()
backbone_before = backbone.features[0].weight.detach().clone()

# Stage 1: template generation with the frozen tracker, stored as NumPy like the released .npy files.
with torch.no_grad():
    crops = torch.randn(40, 3, 7, 7)
    feats = backbone(crops).cpu().numpy()
template0 = feats[:-2]
templatei = feats[1:-1]
template_acc = 0.5 * template0 + 0.5 * templatei
gt = feats[2:]

# Stage 2: train UpdateNet on tensors rebuilt from the arrays.
model = UpdateResNet()
criterion = nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
losses = []
for epoch in range(30):
    idx = np.random.RandomState(epoch).permutation(len(gt))[:16]
    temp = np.concatenate((template0[idx], template_acc[idx], templatei[idx]), axis=1)
    input_up = torch.Tensor(temp)
    init_inp = torch.Tensor(template0[idx])
    target = torch.Tensor(gt[idx])
    output = model(input_up, init_inp)
    loss = criterion(output, target) / target.size(0)
    optimizer.zero_grad()
    loss.backward()
    assert model.update[0].weight.grad.abs().sum() > 0
    optimizer.step()
    losses.append(loss.item())

assert losses[-1] < losses[0], (losses[0], losses[-1])
assert torch.equal(backbone.features[0].weight, backbone_before)
assert backbone.features[0].weight.grad is None
print("UpdateNet loss %.3f -> %.3f; backbone untouched" % (losses[0], losses[-1]))
