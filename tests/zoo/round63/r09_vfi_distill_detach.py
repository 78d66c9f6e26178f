"""
expect: none
dynamic: dismiss
source: https://github.com/XyzHuy/UET-Deep-Learning-2025_Frame-Interpolation/blob/c6d744e08e0ec4a6e36474796be4bbc478720fb5/Loss.py#L222

A RIFE-style video frame interpolation model has a student branch that sees
only the two input frames and a privileged teacher branch that also sees the
ground-truth middle frame.  The combined loss adds the reconstruction loss of
the student, a VGG term whose target features are `.detach()`ed, the teacher's
own reconstruction loss, and a distillation term
`(weights_s - weights_t.detach()).abs().mean()` over the student's multi-scale
blending weights; it also grows the total with `total_loss += ...` and the
training loop accumulates gradients over two batches.  The detaches look like
they could starve a branch, but they are stop-gradient targets: the teacher is
trained by its own reconstruction loss and must not be pulled toward the
student, and the VGG target is a constant; the in-place `+=` acts on a loss
scalar nothing saved.  The asserts check that both branches get gradients,
that the teacher's gradient is identical with and without the distillation
term while the student's changes, and that training lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyInterpolator(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.PReLU(16), nn.Conv2d(16, 2, 3, padding=1))
        self.teacher = nn.Sequential(nn.Conv2d(9, 16, 3, padding=1), nn.PReLU(16), nn.Conv2d(16, 2, 3, padding=1))
        self.refine = nn.Conv2d(9, 3, 3, padding=1)

    @staticmethod
    def blend(weights, img0, img1):
        w = torch.softmax(weights, dim=1)
        return w[:, :1] * img0 + w[:, 1:] * img1

    def forward(self, img0, img1, gt=None):
        w_s = self.student(torch.cat([img0, img1], 1))
        merged = self.blend(w_s, img0, img1)
        pred = merged + 0.1 * torch.tanh(self.refine(torch.cat([img0, img1, merged], 1)))
        aux = {"weights_fwd_student": [F.avg_pool2d(w_s, 2), w_s]}
        if gt is not None:
            w_t = self.teacher(torch.cat([img0, img1, gt], 1))
            aux["weights_fwd_teacher"] = w_t
            aux["merged_teacher"] = self.blend(w_t, img0, img1)
        return pred, aux


class FeaturePerceptual(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, pred, target):
        return (self.layers(pred) - self.layers(target).detach()).abs().mean() * 0.1


class CombinedLoss(nn.Module):
    def __init__(self, use_distill=True):
        super().__init__()
        self.vgg_loss = FeaturePerceptual()
        self.use_distill = use_distill

    def forward(self, pred, gt, merged_teacher=None, flow_student=None, flow_teacher=None):
        loss_l1 = F.l1_loss(pred, gt)
        total_loss = loss_l1
        total_loss += self.vgg_loss(pred, gt)
        if merged_teacher is not None:
            total_loss += F.l1_loss(merged_teacher, gt)
        if self.use_distill and flow_student is not None and flow_teacher is not None:
            loss_distill = 0
            for weights_s in flow_student:
                weights_t = F.interpolate(flow_teacher, size=weights_s.shape[2:], mode="bilinear", align_corners=False)
                loss_distill += (weights_s - weights_t.detach()).abs().mean()
            total_loss += 0.01 * loss_distill
        return total_loss


def batch(seed):
    g = torch.Generator().manual_seed(seed)
    img0 = torch.rand(2, 3, 16, 16, generator=g)
    img1 = torch.rand(2, 3, 16, 16, generator=g)
    return img0, img1, 0.5 * (img0 + img1)


def branch_grads(model, criterion, data):
    model.zero_grad()
    img0, img1, gt = data
    pred, aux = model(img0, img1, gt=gt)
    criterion(pred, gt, aux["merged_teacher"], aux["weights_fwd_student"], aux["weights_fwd_teacher"]).backward()
    t = [p.grad.clone() for p in model.teacher.parameters()]
    s = [p.grad.clone() for p in model.student.parameters()]
    return t, s


model = TinyInterpolator()
t_with, s_with = branch_grads(model, CombinedLoss(use_distill=True), batch(0))
t_without, s_without = branch_grads(model, CombinedLoss(use_distill=False), batch(0))
assert all(g.abs().sum() > 0 for g in t_with + s_with)
assert all(torch.allclose(a, b) for a, b in zip(t_with, t_without)), "distillation must not move the teacher"
assert not all(torch.allclose(a, b) for a, b in zip(s_with, s_without)), "distillation must reach the student"

criterion = CombinedLoss()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
accumulation_steps = 2
losses = []
for step in range(60):
    img0, img1, gt = batch(step % 4)
    pred, aux = model(img0, img1, gt=gt)
    loss = criterion(pred, gt, aux["merged_teacher"], aux["weights_fwd_student"], aux["weights_fwd_teacher"])
    (loss / accumulation_steps).backward()
    if (step + 1) % accumulation_steps == 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
    losses.append(loss.item())
assert sum(losses[-4:]) < 0.8 * sum(losses[:4]), (losses[:4], losses[-4:])

print("r09 ok")
