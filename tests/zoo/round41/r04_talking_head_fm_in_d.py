"""
expect: GL001 84
dynamic: confirm
source: https://github.com/YuanxunLu/LiveSpeechPortraits/issues/24

An audio-driven talking-head renderer (feature maps from the audio branch -> face image) is
trained as a conditional GAN with a multi-layer discriminator. The feature-matching loss,
which the paper uses to train the generator, is computed inside backward_D: the fake pair is
detached before the discriminator sees it (right for the adversarial D term), the L1
distance between its intermediate features and the real ones is added to loss_D, and
backward_G never sees it. Because the fake features come from fake_AB.detach(), the
feature-matching term cannot send any gradient to the generator; it only nudges the
discriminator. The asserts run the discriminator step, whose loss carries the FM term
with weight 10, and check that no generator weight received a gradient from it; the same
term computed from the attached fake, as part of the generator objective (the repository's
fix moved it into backward_G), gives the generator a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Feature2FaceG(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(6, 16, 3, 1, 1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, 1, 1), nn.ReLU(),
            nn.Conv2d(16, 3, 3, 1, 1), nn.Tanh(),
        )

    def forward(self, x):
        return self.net(x)


class MultiLayerD(nn.Module):
    """Returns every intermediate activation; the last one is the patch score."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(9, 16, 4, 2, 1), nn.LeakyReLU(0.2)),
            nn.Sequential(nn.Conv2d(16, 32, 4, 2, 1), nn.LeakyReLU(0.2)),
            nn.Conv2d(32, 1, 3, 1, 1),
        ])

    def forward(self, x):
        feats = []
        for block in self.blocks:
            x = block(x)
            feats.append(x)
        return feats


def gan_loss(score, is_real):
    target = torch.ones_like(score) if is_real else torch.zeros_like(score)
    return F.mse_loss(score, target)


class Feature2FaceModel:
    def __init__(self, lambda_feat=10.0):
        self.G, self.D = Feature2FaceG(), MultiLayerD()
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=2e-4)
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=2e-4)
        self.lambda_feat = lambda_feat

    def forward(self, feature_map, cand_image):
        self.input_maps = torch.cat([feature_map, cand_image], dim=1)
        self.fake = self.G(self.input_maps)

    def feature_matching(self, pred_fake, pred_real):
        loss = 0.0
        for f_fake, f_real in zip(pred_fake[:-1], pred_real[:-1]):
            loss = loss + F.l1_loss(f_fake, f_real.detach()) * self.lambda_feat
        return loss

    def backward_D(self, tgt_image):
        real_AB = torch.cat((self.input_maps, tgt_image), dim=1)
        fake_AB = torch.cat((self.input_maps, self.fake), dim=1)
        pred_real = self.D(real_AB)
        pred_fake = self.D(fake_AB.detach())
        loss_D_real = gan_loss(pred_real[-1], True) * 2
        loss_D_fake = gan_loss(pred_fake[-1], False)
        self.loss_D_FM = self.feature_matching(pred_fake, pred_real)
        self.loss_D = (loss_D_fake + loss_D_real) * 0.5 + self.loss_D_FM
        self.loss_D.backward()

    def backward_G(self, tgt_image):
        fake_AB = torch.cat((self.input_maps, self.fake), dim=1)
        loss_G_GAN = gan_loss(self.D(fake_AB)[-1], True)
        loss_l1 = F.l1_loss(self.fake, tgt_image) * 100.0
        (loss_G_GAN + loss_l1).backward()

    def optimize_parameters(self, feature_map, cand_image, tgt_image):
        self.forward(feature_map, cand_image)
        self.opt_D.zero_grad()
        self.backward_D(tgt_image)
        self.opt_D.step()
        self.opt_G.zero_grad()
        self.backward_G(tgt_image)
        self.opt_G.step()


feature_map = torch.randn(4, 3, 16, 16)
cand_image = torch.rand(4, 3, 16, 16) * 2 - 1
tgt_image = torch.rand(4, 3, 16, 16) * 2 - 1

model = Feature2FaceModel(lambda_feat=10.0)

# The D step carries the FM term (weight 10) but leaves the generator untouched.
model.forward(feature_map, cand_image)
model.opt_D.zero_grad()
model.backward_D(tgt_image)
assert model.loss_D_FM.item() > 0
assert all(p.grad is None for p in model.G.parameters()), "FM term in loss_D reached G"
assert all(p.grad is not None for p in model.D.parameters())
model.opt_D.step()

# Intended: the same FM term computed from the attached fake, as part of the G objective.
model.forward(feature_map, cand_image)
pred_fake = model.D(torch.cat((model.input_maps, model.fake), dim=1))
pred_real = model.D(torch.cat((model.input_maps, tgt_image), dim=1))
fm_grads = torch.autograd.grad(model.feature_matching(pred_fake, pred_real), list(model.G.parameters()))
fm_norm = sum(g.norm() for g in fm_grads)
assert fm_norm > 0

for _ in range(3):
    model.optimize_parameters(feature_map, cand_image, tgt_image)
print(f"FM term in backward_D = {model.loss_D_FM.item():.3f}, generator grads from it: none; "
      f"FM term on the attached fake: generator grad norm {fm_norm:.3e}")
