"""
expect: none
dynamic: dismiss
source: https://github.com/photosynthesis-team/piq/issues/255

piq's perceptual (content) loss builds its per-layer weights with
self.weights = [torch.tensor(w) for w in weights], which triggers PyTorch's "To copy
construct from a tensor ... use sourceTensor.clone().detach()" warning when the weights
are passed as tensors. It looks like a torch.tensor(tensor) rebuild that cuts a graph,
but the layer weights are constants: nothing is meant to flow into them, and the images
still reach the loss through the feature extractor. This program trains a small
restoration network with such a loss. The asserts show the warning fires, the network
receives gradients through the frozen extractor, the weights stay fixed and the loss falls.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ContentLoss(nn.Module):
    def __init__(self, weights, layers=(0, 1)):
        super().__init__()
        self.extractor = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU())])
        self.extractor.requires_grad_(False)
        self.layers = layers
        self.weights = [torch.tensor(w) for w in weights]

    def features(self, x):
        feats = []
        for block in self.extractor:
            x = block(x)
            feats.append(x)
        return [feats[i] for i in self.layers]

    def forward(self, x, y):
        fx, fy = self.features(x), self.features(y)
        return sum(w * F.mse_loss(a, b) for w, a, b in zip(self.weights, fx, fy))


restorer = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    criterion = ContentLoss(weights=torch.tensor([0.5, 1.0]))
assert any("copy construct" in str(w.message) for w in caught), "the telltale warning fires"
weights_before = [w.clone() for w in criterion.weights]

clean = torch.rand(4, 3, 16, 16)
noisy = clean + 0.2 * torch.randn_like(clean)
opt = torch.optim.Adam(restorer.parameters(), lr=3e-3)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = criterion(restorer(noisy), clean)
    loss.backward()
    assert restorer[0].weight.grad.abs().sum() > 0, "gradient reaches the restorer"
    opt.step()
    losses.append(loss.item())
assert all(p.grad is None for p in criterion.extractor.parameters()), "extractor stays frozen"
assert all(torch.equal(a, b) for a, b in zip(weights_before, criterion.weights))
assert losses[-1] < losses[0], "perceptual loss falls"
print(f"ok: torch.tensor(w) on constant layer weights is harmless; loss {losses[0]:.4f} -> {losses[-1]:.4f}")
