"""
expect: GL002 color_utils.py:28, GL003 color_utils.py:29
dynamic: confirm
source: https://github.com/omarsaqr12/ImageColorization/blob/e4f9c9805f916cf3de4c52fc85eaf96fbf8fa13d/code/src/training/train_imagenet_models.py

The colorization trainer predicts the ab channels from the L channel and adds a perceptual (feature) loss
computed on RGB images. To get RGB it converts the predicted Lab image through NumPy and scikit-image,
rebuilds a tensor from the NumPy result and then calls requires_grad_(True) on it, with a comment that
this reattaches it to the graph. It does not: the rebuilt tensor is a new leaf with no history, so the
perceptual term backpropagates into nothing and only adds a constant to the loss; the network is trained by
the plain ab regression loss alone. color_utils.py reproduces the conversion helper (NumPy round trip,
rebuild, requires_grad_ switch) next to a torch-only conversion, and main.py trains a tiny colorizer. The
asserts show that with the round-trip helper the model's gradients are exactly the same with and without
the perceptual term, while with the torch conversion the perceptual term changes the gradients and
training lowers the perceptual loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from color_utils import lab_to_rgb, lab_to_rgb_torch

torch.manual_seed(0)
torch.set_num_threads(1)


class Colorizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, L):
        return 40.0 * torch.tanh(self.net(L / 100.0))


feature_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
for p in feature_net.parameters():
    p.requires_grad_(False)

L = 30.0 + 40.0 * torch.rand(4, 1, 12, 12)
with torch.no_grad():
    ab_true = Colorizer()(L)  # colors that a colorizer of this shape can reach


def losses(model, convert):
    ab_pred = model(L)
    base = F.mse_loss(ab_pred, ab_true) / 100.0
    rgb_pred = convert(L, ab_pred)
    rgb_true = convert(L, ab_true)
    perceptual = F.mse_loss(feature_net(rgb_pred), feature_net(rgb_true.detach()))
    return base, perceptual


def grads_of(model, loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


torch.manual_seed(1)
model = Colorizer()

# 1) NumPy round trip + requires_grad_(True): the perceptual term is a constant
base, perc = losses(model, lab_to_rgb)
g_base = grads_of(model, base)
base, perc = losses(model, lab_to_rgb)
g_total = grads_of(model, base + 10.0 * perc)
assert perc.item() > 0
assert all(torch.equal(a, b) for a, b in zip(g_base, g_total))
print("numpy round trip: perceptual term changes no gradient")

# 2) torch conversion: the perceptual term reaches the colorizer
base, perc = losses(model, lab_to_rgb_torch)
g_base = grads_of(model, base)
base, perc = losses(model, lab_to_rgb_torch)
g_total = grads_of(model, base + 10.0 * perc)
assert any(not torch.allclose(a, b) for a, b in zip(g_base, g_total))

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for step in range(60):
    opt.zero_grad()
    base, perc = losses(model, lab_to_rgb_torch)
    (base + 1e3 * perc).backward()
    opt.step()
    history.append((base.item(), perc.item()))
assert history[-1][0] < history[0][0] and history[-1][1] < 0.9 * history[0][1], (history[0], history[-1])
print("torch conversion: ab loss %.3f -> %.3f, perceptual loss %.6f -> %.6f"
      % (history[0][0], history[-1][0], history[0][1], history[-1][1]))
