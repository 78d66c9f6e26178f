"""
expect: none
dynamic: dismiss
source: https://github.com/hfslyc/AdvSemiSeg/issues/2

Look-alike (adversarial semi-supervised segmentation, output-space discriminator). While the
segmentation network G is updated, the discriminator's parameters are switched to
requires_grad=False; the unlabelled branch reads D's confidence map and G's argmax through
.data.cpu().numpy() and rebuilds the pseudo-label target with torch.FloatTensor; D is later
trained on pred.detach(). All of this is deliberate: the adversarial term still flows through
the frozen D into G (as the author explains in the issue), the numpy round trip only builds a
target and an ignore mask, and the detach keeps D's loss out of G. The asserts check that the
adversarial term alone gives G a gradient while D gets none, that D's update leaves G's
gradients untouched, that the pseudo-label loss trains G, and that both players improve.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
C, H = 3, 8

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, C, 1))
model_D = nn.Sequential(nn.Conv2d(C, 16, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 3, padding=1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
optimizer_D = torch.optim.Adam(model_D.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()


def make_D_label(value, ignore_mask):
    lbl = torch.full((ignore_mask.shape[0], 1, H, H), float(value))
    return lbl


def one_hot(labels):
    return F.one_hot(labels, C).permute(0, 3, 1, 2).float()


images = torch.randn(4, 3, H, H)
labels = (images[:, 0] > 0).long() + (images[:, 1] > 0.5).long()
unlabelled = torch.randn(4, 3, H, H)
lambda_adv, lambda_semi, mask_T = 0.01, 0.1, 0.2


def train_iter(check=False):
    optimizer.zero_grad()
    optimizer_D.zero_grad()
    for param in model_D.parameters():  # don't accumulate grads in D
        param.requires_grad = False

    # unlabelled images: D's confidence selects pixels whose argmax becomes the target
    pred = model(unlabelled)
    pred_remain = pred.detach()
    D_out = model_D(F.softmax(pred, 1))
    D_out_sigmoid = torch.sigmoid(D_out).data.cpu().numpy().squeeze(axis=1)
    semi_ignore_mask = D_out_sigmoid < mask_T
    semi_gt = pred.data.cpu().numpy().argmax(axis=1)
    semi_gt[semi_ignore_mask] = 255
    semi_gt = torch.FloatTensor(semi_gt)
    loss_semi = lambda_semi * F.cross_entropy(pred, semi_gt.long(), ignore_index=255)
    if check:
        g_semi = torch.autograd.grad(loss_semi, list(model.parameters()), retain_graph=True)
        assert sum(g.abs().sum() for g in g_semi) > 0, "pseudo-label loss trains G"
    loss_semi.backward()

    # labelled images: supervised loss + fool the (frozen) discriminator
    pred = model(images)
    loss_seg = F.cross_entropy(pred, labels)
    D_out = model_D(F.softmax(pred, 1))
    loss_adv_pred = bce(D_out, make_D_label(1, np.zeros(4)))
    if check:
        g_adv = torch.autograd.grad(loss_adv_pred, list(model.parameters()), retain_graph=True)
        assert sum(g.abs().sum() for g in g_adv) > 0, "adversarial term reaches G through frozen D"
    (loss_seg + lambda_adv * loss_adv_pred).backward()
    if check:
        assert all(p.grad is None for p in model_D.parameters()), "D accumulated nothing"
        g_before = [p.grad.clone() for p in model.parameters()]

    # train D on detached predictions and on ground truth
    for param in model_D.parameters():
        param.requires_grad = True
    pred = torch.cat((pred.detach(), pred_remain), 0)
    loss_D = bce(model_D(F.softmax(pred, 1)), make_D_label(0, np.zeros(8))) / 2
    loss_D = loss_D + bce(model_D(one_hot(labels)), make_D_label(1, np.zeros(4))) / 2
    loss_D.backward()
    if check:
        assert all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), g_before))
        assert all(p.grad is not None for p in model_D.parameters())
    optimizer.step()
    optimizer_D.step()
    return loss_seg.item(), loss_D.item(), loss_semi.item()


first = train_iter(check=True)
for _ in range(60):
    last = train_iter()
assert last[0] < 0.7 * first[0], (first, last)
assert last[1] < first[1], (first, last)
print(f"seg loss {first[0]:.3f} -> {last[0]:.3f}, D loss {first[1]:.3f} -> {last[1]:.3f}")
