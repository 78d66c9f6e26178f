"""
expect: none
dynamic: dismiss
source: https://github.com/alterzero/DBPN-Pytorch/issues/37

DBPN-Pytorch issue #37 asks, about main_gan.py, whether the generator's output
should be detached when training the discriminator. This program is the
correct pattern the question points at: in the discriminator step the
super-resolved image is passed as `sr.detach()` (a deliberate stop-gradient:
the generator must not be updated by the discriminator loss, and no graph
through the generator is needed), and in the generator step the image is used
undetached so the adversarial term reaches the generator. The asserts show the
discriminator step touches only discriminator gradients, the generator step
gives every generator parameter a gradient (and the adversarial term changes
it versus content loss alone), and the generator step leaves the
discriminator's weights unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Upscaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PReLU(),
                                  nn.Conv2d(12, 12, 3, padding=1), nn.PixelShuffle(2))

    def forward(self, lr):
        return self.body(lr)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(8, 1, 4, 2, 1))

    def forward(self, img):
        return self.body(img).mean(dim=(1, 2, 3))


def main():
    torch.manual_seed(0)
    gen, critic = Upscaler(), Critic()
    g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
    d_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    lr_img, hr_img = torch.rand(4, 3, 8, 8), torch.rand(4, 3, 16, 16)
    ones, zeros = torch.ones(4), torch.zeros(4)

    # discriminator step
    g_opt.zero_grad(set_to_none=True)
    d_opt.zero_grad(set_to_none=True)
    sr = gen(lr_img)
    d_loss = (F.binary_cross_entropy_with_logits(critic(hr_img), ones)
              + F.binary_cross_entropy_with_logits(critic(sr.detach()), zeros))
    d_loss.backward()
    assert all(p.grad is not None for p in critic.parameters())
    assert all(p.grad is None for p in gen.parameters())
    d_opt.step()

    # generator step
    critic_before = [p.detach().clone() for p in critic.parameters()]
    g_opt.zero_grad(set_to_none=True)
    content = F.mse_loss(sr, hr_img)
    adv = F.binary_cross_entropy_with_logits(critic(sr), ones)
    (content + 1e-2 * adv).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in gen.parameters())
    full = torch.cat([p.grad.flatten() for p in gen.parameters()])
    content_only = torch.autograd.grad(F.mse_loss(gen(lr_img), hr_img), list(gen.parameters()))
    assert not torch.allclose(full, torch.cat([g.flatten() for g in content_only]))
    g_opt.step()
    assert all(torch.equal(b, a) for b, a in zip(critic_before, critic.parameters()))
    print("detached critic step, undetached generator step: both train as intended")


if __name__ == "__main__":
    main()
