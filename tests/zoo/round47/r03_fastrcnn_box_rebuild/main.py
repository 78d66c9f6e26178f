"""
expect: GL002 main.py:41
dynamic: confirm
source: https://github.com/Dragonyong-siu/Fast_RCNN-More-fast-than-RCNN/blob/2b417eac0ef52e695e753fd1108387d72cb52769/Train.py

Fast R-CNN training on pooled RoI features with two sibling heads. The box branch
predicts deltas (d_x, d_y, d_w, d_h); the trainer applies them to the proposal box
and packs the four resulting 0-d tensors into a fresh tensor with
`torch.Tensor((...))` before the smooth-L1 localisation loss. That constructor copies
the values and drops their history, so the localisation term is a constant for
autograd: the classifier trains while every weight of the box-regression branch keeps
`grad is None` and never moves. The asserts show exactly that, and that stacking the
four terms with `torch.stack` gives the regression branch a gradient.
"""
import warnings

import torch

from heads import SiblingHeads, fast_rcnn_loss

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")


def make_forms(box):
    x2, x1, y2, y1 = box
    return (x1 + x2) * 0.5, (y1 + y2) * 0.5, (x2 - x1), (y2 - y1)


def regress_box(deltas, proposal):
    d_x, d_y, d_w, d_h = deltas
    p_x, p_y, p_w, p_h = make_forms(proposal)
    return (p_w * d_x + p_x, p_h * d_y + p_y, p_w * torch.exp(d_w), p_h * torch.exp(d_h))


def train_epoch(model, optimizer, samples):
    total = 0.0
    for roi_feats, cls_label, loc_label, proposal in samples:
        model.zero_grad()
        cls_logits, box_deltas = model(roi_feats)
        t_u = regress_box(box_deltas.squeeze(0), proposal)
        t_u = torch.Tensor(t_u)
        loss = fast_rcnn_loss(cls_logits, cls_label, t_u, loc_label)
        loss.backward(retain_graph=True)
        optimizer.step()
        optimizer.zero_grad()
        total += loss.item()
    return total / len(samples)


torch.manual_seed(0)
torch.set_num_threads(1)
samples = []
for _ in range(6):
    roi = torch.randn(1, 32, 7, 7)
    label = torch.randint(0, 20, (1,))
    proposal = torch.tensor([60.0, 20.0, 80.0, 30.0])
    target = torch.tensor([52.0, 57.0, 38.0, 52.0])
    samples.append((roi, label, target, proposal))

model = SiblingHeads()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
reg_before = [p.detach().clone() for p in model.reg_branch.parameters()]
cls_before = model.cls_branch.out.weight.detach().clone()
train_epoch(model, optimizer, samples)
assert all(torch.equal(b, p) for b, p in zip(reg_before, model.reg_branch.parameters()))
assert not torch.equal(cls_before, model.cls_branch.out.weight)

cls_logits, box_deltas = model(samples[0][0])
t_u = regress_box(box_deltas.squeeze(0), samples[0][3])
loss = fast_rcnn_loss(cls_logits, samples[0][1], torch.stack(t_u), samples[0][2])
loss.backward()
assert model.reg_branch.out.weight.grad is not None
assert model.reg_branch.out.weight.grad.abs().sum() > 0
print("box branch frozen by torch.Tensor(...); torch.stack gives it a gradient")
