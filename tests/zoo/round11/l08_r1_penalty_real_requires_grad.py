"""
expect: none
dynamic: dismiss
source: https://github.com/rosinality/style-based-gan-pytorch/issues/84

The question: what does `real_image.requires_grad = True` in train.py mean, and why backpropagate
there? The answer: it is for the R1 gradient penalty, which needs the gradient of D's output with
respect to the real images. This program rebuilds the discriminator step: a data batch is switched to
requires_grad, D scores it, torch.autograd.grad(create_graph=True) gives the input gradient, and the
penalty is added to the non-saturating loss. The asserts show the penalty has a graph, D's weights
get non-zero gradients that include the penalty's contribution, and D's weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 1),
        )

    def forward(self, img):
        return self.net(img)


def d_step(discriminator, real_image, fake_image, r1_gamma):
    real_image.requires_grad = True
    real_predict = discriminator(real_image)
    loss = F.softplus(-real_predict).mean()
    if r1_gamma > 0:
        grad_real, = autograd.grad(outputs=real_predict.sum(), inputs=real_image, create_graph=True)
        grad_penalty = grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()
        assert grad_penalty.grad_fn is not None
        loss = loss + r1_gamma / 2 * grad_penalty
    fake_predict = discriminator(fake_image.detach())
    return loss + F.softplus(fake_predict).mean()


torch.manual_seed(0)
real = torch.randn(4, 3, 16, 16)
fake = torch.randn(4, 3, 16, 16)

D = Discriminator()
D.zero_grad()
d_step(D, real.clone(), fake, r1_gamma=0.0).backward()
plain = D.net[0].weight.grad.clone()
D.zero_grad()
d_step(D, real.clone(), fake, r1_gamma=10.0).backward()
with_r1 = D.net[0].weight.grad.clone()
assert with_r1.abs().sum() > 0 and not torch.allclose(plain, with_r1)

opt = torch.optim.Adam(D.parameters(), lr=2e-4)
w0 = D.net[0].weight.detach().clone()
opt.step()
assert not torch.equal(w0, D.net[0].weight)
print("ok: requires_grad on the real batch feeds the R1 penalty; D trains with it")
