"""
expect: none
dynamic: dismiss
source: https://github.com/fangyuanmao/PID/issues/46

A reader of PID (physics-informed diffusion for visible-to-infrared translation) asked how
the physics losses get_loss_rec and get_loss_tev can guide generation when the TeVNet that
computes them has requires_grad = False. The authors answered that TeVNet is frozen on
purpose, but the loss is computed on the generator's output, so its gradient still flows
back through the frozen network. This program trains a tiny translator with L1 + physics
losses through a frozen TeVNet (targets under no_grad). The asserts show the physics term
changes the generator's gradient, TeVNet never receives a gradient or changes, and the
losses fall.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from physics import get_loss_rec, get_loss_tev, load_frozen_tevnet

torch.manual_seed(0)
torch.set_num_threads(1)


class Translator(nn.Module):
    """Visible (RGB) -> infrared generator standing in for the latent diffusion model."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, rgb):
        return self.net(rgb)


def generator_loss(gen, tevnet, rgb, gt_ir, lam):
    pred_ir = gen(rgb)
    physics = get_loss_tev(tevnet, pred_ir, gt_ir) + get_loss_rec(tevnet, pred_ir)
    return F.l1_loss(pred_ir, gt_ir) + lam * physics, physics


tevnet = load_frozen_tevnet()
tev_before = {k: v.clone() for k, v in tevnet.state_dict().items()}
gen = Translator()
rgb, gt_ir = torch.rand(4, 3, 12, 12), torch.rand(4, 1, 12, 12)

grads = {}
for lam in (0.0, 1.0):
    gen.zero_grad()
    loss, physics = generator_loss(gen, tevnet, rgb, gt_ir, lam)
    assert physics.requires_grad, "the physics loss is on the generator's graph"
    loss.backward()
    grads[lam] = gen.net[0].weight.grad.clone()
assert not torch.allclose(grads[0.0], grads[1.0]), "physics term changes the generator gradient"

opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
history = []
for step in range(40):
    opt.zero_grad()
    loss, physics = generator_loss(gen, tevnet, rgb, gt_ir, lam=1.0)
    loss.backward()
    opt.step()
    history.append(physics.item())
assert all(p.grad is None for p in tevnet.parameters()), "frozen TeVNet gets no gradient"
assert all(torch.equal(v, tev_before[k]) for k, v in tevnet.state_dict().items())
assert history[-1] < history[0], "physics loss decreases"
print(f"ok: physics loss trains the generator through frozen TeVNet: {history[0]:.3f} -> {history[-1]:.3f}")
