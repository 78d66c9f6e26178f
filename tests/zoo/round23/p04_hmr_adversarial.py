"""
expect: GL005 58
dynamic: confirm
source: https://github.com/MandyMo/pytorch_HMR/issues/15

HMR trains a regressor (image -> SMPL theta) against a pose discriminator. The reported
trainer did `e_loss.backward(retain_graph=True); e_opt.step()` and then
`d_loss.backward()`, where the discriminator loss was built from the regressor's thetas
without detaching them. `e_opt.step()` rewrites the regressor weights in place while the
discriminator loss still has to backpropagate through them: recent PyTorch raises the
inplace-modification error (older versions silently used the updated weights). The asserts
show the error on the reported loop and a clean step once the fake thetas are detached.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, feat=20, theta=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(feat, 32), nn.ReLU())
        self.iter_fc = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, theta))

    def forward(self, img):
        return self.iter_fc(self.encoder(img))


class PoseDiscriminator(nn.Module):
    def __init__(self, theta=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(theta, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, thetas):
        return self.net(thetas)


def calc_losses(gen, disc, images, kp_target, mosh_thetas):
    thetas = gen(images)
    loss_kp = ((thetas[:, :6] - kp_target) ** 2).mean()
    e_disc_loss = ((disc(thetas) - 1.0) ** 2).mean()
    fake_value = disc(thetas)                       # regressor output, not detached
    real_value = disc(mosh_thetas)
    d_disc_loss = ((real_value - 1.0) ** 2).mean() + (fake_value ** 2).mean()
    return loss_kp + 0.1 * e_disc_loss, d_disc_loss


gen, disc = Regressor(), PoseDiscriminator()
e_opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
images, kp, mosh = torch.randn(16, 20), torch.randn(16, 6), torch.randn(16, 12)

e_loss, d_loss = calc_losses(gen, disc, images, kp, mosh)
e_opt.zero_grad()
e_loss.backward(retain_graph=True)
e_opt.step()
d_opt.zero_grad()
try:
    d_loss.backward()
    d_opt.step()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "d_loss must backpropagate through regressor weights that e_opt.step() changed"


def fixed_iteration(gen, disc, e_opt, d_opt):
    thetas = gen(images)
    e_loss = ((thetas[:, :6] - kp) ** 2).mean() + 0.1 * ((disc(thetas) - 1.0) ** 2).mean()
    e_opt.zero_grad()
    e_loss.backward()
    e_opt.step()
    fake = thetas.detach()
    d_loss = ((disc(mosh) - 1.0) ** 2).mean() + (disc(fake) ** 2).mean()
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    return e_loss.item(), d_loss.item()


g2, d2 = Regressor(), PoseDiscriminator()
o_e, o_d = torch.optim.Adam(g2.parameters(), lr=1e-3), torch.optim.Adam(d2.parameters(), lr=1e-3)
hist = [fixed_iteration(g2, d2, o_e, o_d) for _ in range(60)]
assert hist[-1][0] < hist[0][0]
print("p04 ok: e_opt.step() between the two backward passes breaks d_loss", hist[0], hist[-1])
