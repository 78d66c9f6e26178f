"""
expect: GL005 52
dynamic: confirm
source: https://github.com/ZYB0726/MKDNet/issues/4

An RGB-T tracker is trained with an adversarial feature term: a discriminator tells RGB region features from
thermal ones, and the tracker's thermal branch is pushed to fool it. As in the report's traceback, the actor
runs one forward and returns (loss, loss_D), and the failing backward ends in feat_D2.forward(roi4t) /
AddmmBackward0. In this rebuild the trainer backpropagates loss_D with retain_graph=True, steps the
discriminator's optimizer, and then backpropagates the tracker loss, whose adversarial part goes through that
discriminator forward on the thermal features. opt_D.step() has rewritten the discriminator weights that this
graph saved, so the second backward raises "modified by an inplace operation"; the reporter had already tried inplace=False and removing += without effect. The asserts
show the RuntimeError and that stepping the discriminator only after both backward passes trains both parts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.rgb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.tir = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.score = nn.Linear(256, 1)
        self.feat_D2 = nn.Sequential(nn.Linear(128, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, rgb, tir):
        roi4r, roi4t = self.rgb(rgb), self.tir(tir)
        score = self.score(torch.cat([roi4r, roi4t], 1)).squeeze(1)
        pred_real = self.feat_D2(roi4r.detach())
        pred_fake_feat_G2 = self.feat_D2(roi4t)
        return score, pred_real, pred_fake_feat_G2


def actor(net, rgb, tir, label):
    score, pred_real, pred_fake = net(rgb, tir)
    loss_track = F.binary_cross_entropy_with_logits(score, label)
    loss_adv = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
    loss_D = F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real)) + \
        F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
    return loss_track + 0.1 * loss_adv, loss_D


def cycle(net, opt, opt_D, rgb, tir, label):
    loss, loss_D = actor(net, rgb, tir, label)
    opt_D.zero_grad()
    loss_D.backward(retain_graph=True)
    opt_D.step()
    opt.zero_grad()
    loss.backward()
    opt.step()


def make(net):
    d_params = list(net.feat_D2.parameters())
    ids = {id(p) for p in d_params}
    g_params = [p for p in net.parameters() if id(p) not in ids]
    return torch.optim.SGD(g_params, lr=0.05), torch.optim.SGD(d_params, lr=0.05)


rgb, tir = torch.rand(4, 3, 16, 16), torch.rand(4, 1, 16, 16)
label = torch.tensor([1.0, 0.0, 1.0, 0.0])

net = Tracker()
opt, opt_D = make(net)
raised = False
try:
    cycle(net, opt, opt_D, rgb, tir, label)
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the discriminator step to invalidate the tracker graph"

# intended: collect both gradients first, then step both optimizers
torch.manual_seed(0)
net2 = Tracker()
opt2, opt2_D = make(net2)
tir_w = net2.tir[0].weight.detach().clone()
d_w = net2.feat_D2[0].weight.detach().clone()
for _ in range(3):
    loss, loss_D = actor(net2, rgb, tir, label)
    opt2.zero_grad()
    opt2_D.zero_grad()
    d_grads = torch.autograd.grad(loss_D, list(net2.feat_D2.parameters()), retain_graph=True)
    loss.backward()
    for p, g in zip(net2.feat_D2.parameters(), d_grads):
        p.grad = g
    opt2.step()
    opt2_D.step()
assert not torch.equal(net2.tir[0].weight.detach(), tir_w)
assert not torch.equal(net2.feat_D2[0].weight.detach(), d_w)
print("step-between-backwards: RuntimeError; step-after-both: tracker and discriminator updated")
