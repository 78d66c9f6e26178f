"""
expect: GL002 39
dynamic: confirm
source: https://github.com/sharif-apu/BJDD_CVPR21/issues/11

A joint demosaicing/denoising generator is trained with an L1 term plus a
colour-difference (Delta-E style) loss class. The colour loss converts each
generated image to a numpy array (`.cpu().detach().numpy()` in a helper
method), measures the colour difference in numpy, and rebuilds the per-image
values with `torch.tensor(self.loss, requires_grad=True)`. The rebuilt tensor
is a fresh leaf: the colour term changes the loss value but has no path back
to the generator. Asserted: the generator gradients with and without the
colour term are identical, although the colour term is non-zero.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OPPONENT = np.array([[0.299, 0.587, 0.114], [0.5, -0.5, 0.0], [0.25, 0.25, -0.5]])


class DeltaEColorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = []

    def tensor_to_numpy(self, image):
        return image.cpu().detach().numpy().transpose(1, 2, 0)

    def forward(self, gen_images, gt_images):
        self.loss.clear()
        for k in range(len(gen_images)):
            gt_np = self.tensor_to_numpy(gt_images[k]) @ OPPONENT.T
            gen_np = self.tensor_to_numpy(gen_images[k]) @ OPPONENT.T
            delta_e = np.sqrt(((gt_np - gen_np) ** 2).sum(-1))
            self.loss.append(np.mean(delta_e))
        return torch.mean(torch.tensor(self.loss, requires_grad=True))


generator = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
color_loss = DeltaEColorLoss()
noisy = torch.rand(2, 3, 8, 8)
clean = torch.rand(2, 3, 8, 8)


def generator_grads(use_color):
    generator.zero_grad()
    out = generator(noisy)
    loss = F.l1_loss(out, clean)
    color = color_loss(out, clean)
    if use_color:
        loss = loss + color
    loss.backward()
    return [p.grad.clone() for p in generator.parameters()], color


with_color, color_value = generator_grads(True)
without_color, _ = generator_grads(False)
assert color_value.item() > 0
assert color_value.grad_fn is not None  # MeanBackward over a fresh leaf
for a, b in zip(with_color, without_color):
    assert torch.equal(a, b), "colour loss reached the generator"
print("OK: colour loss %.4f contributes no gradient to the generator" % color_value.item())
