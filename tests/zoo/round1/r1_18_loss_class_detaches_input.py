"""expect: GL001 18
dynamic: confirm
source: https://github.com/XPixelGroup/BasicSR/issues/50

A perceptual/content loss class detaches the wrong side: its forward detaches the prediction (instead of only the target features, the question in the linked thread). The generator still receives the adversarial term's gradient, so nothing is None and training "runs", but the content term contributes exactly zero to the generator's gradient: the printout compares the gradient with and without it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContentLoss(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.features = features

    def forward(self, pred, target):
        pred = pred.detach()
        return F.l1_loss(self.features(pred), self.features(target).detach())


torch.manual_seed(0)
gen = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 12))
disc = nn.Sequential(nn.Linear(12, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)).requires_grad_(False)
feats = nn.Sequential(nn.Linear(12, 12), nn.ReLU()).requires_grad_(False)
content = ContentLoss(feats)
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)

z, target = torch.randn(16, 8), torch.randn(16, 12)
fake = gen(z)
adv = -disc(fake).mean()
(g_adv,) = torch.autograd.grad(adv, gen[0].weight, retain_graph=True)
loss = adv + 10.0 * content(fake, target)
opt.zero_grad()
loss.backward()
diff = (gen[0].weight.grad - g_adv).abs().max().item()
print("content term's share of the generator gradient:", diff)
opt.step()
