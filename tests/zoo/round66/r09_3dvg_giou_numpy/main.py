"""
expect: GL002 loss_helper.py:35, GL003 loss_helper.py:41
dynamic: confirm
source: https://github.com/mikelmh025/ScanRefer/blob/13eb59c34fa6cefe119ff1ff56826866de257ddf/lib/loss_helper.py

Visual grounding of referring expressions in 3-D scans (ScanRefer with a DETR-style box
head). For each described object the model predicts a box center and size; the matched
prediction is supervised by a center regression loss and a generalized-IoU loss
(loss_helper.py). `get_corner` converts the predicted boxes to NumPy with
`.detach().cpu().numpy()`, the GIoU matrix is computed in NumPy, and the result is rebuilt
with `torch.Tensor(cost_giou)`; because the rebuilt loss has no grad_fn, the code then sets
`giou_loss.requires_grad = True` so that `loss.backward()` stops complaining. The GIoU term,
weighted 2x in the total loss, therefore trains nothing; in particular the size head, which
only GIoU supervises, never gets a gradient. The asserts show the size head's grad is None,
the gradient of the total loss equals that of the center loss alone, and a run with the
GIoU term ends with exactly the same weights as a run without it; the fixed torch GIoU
reaches the size head and drives the GIoU loss down.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn

from loss_helper import get_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class GroundingHead(nn.Module):
    """Fuses a proposal feature with a sentence embedding and regresses the target box."""

    def __init__(self, feat_dim=16, lang_dim=8):
        super().__init__()
        self.fuse = nn.Sequential(nn.Linear(feat_dim + lang_dim, 32), nn.ReLU())
        self.center_head = nn.Linear(32, 3)
        self.size_head = nn.Linear(32, 3)

    def forward(self, proposal_feat, lang_feat):
        h = self.fuse(torch.cat([proposal_feat, lang_feat], -1))
        return {"center": self.center_head(h), "size": nn.functional.softplus(self.size_head(h)) + 0.05}


def make_batch(n=32):
    feat, lang = torch.randn(n, 16), torch.randn(n, 8)
    center = feat[:, :3] * 0.5 + lang[:, :3] * 0.2
    size = 0.3 + torch.sigmoid(feat[:, 3:6]) * 0.7
    return feat, lang, center, size


def run(model, batch, differentiable_giou):
    feat, lang, center, size = batch
    data_dict = model(feat, lang)
    data_dict.update(center_label=center, size_label=size)
    idx = torch.arange(feat.size(0))  # matcher output: prediction i <-> target i
    return get_loss(data_dict, idx, differentiable_giou)


def train(batch, differentiable_giou, drop_giou=False, steps=200):
    torch.manual_seed(5)
    model = GroundingHead()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss, d = run(model, batch, differentiable_giou)
        if drop_giou:
            loss = 5 * d["box_loss"]
        loss.backward()
        opt.step()
    _, d = run(model, batch, differentiable_giou=True)
    return model, d["giou_loss"].item()


def main():
    batch = make_batch()
    model = GroundingHead()

    loss, d = run(model, batch, differentiable_giou=False)
    assert d["giou_loss"].grad_fn is None and d["giou_loss"].is_leaf
    loss.backward()
    assert model.size_head.weight.grad is None          # only GIoU supervises size
    g_total = [p.grad.clone() for p in model.fuse.parameters()]
    model.zero_grad(set_to_none=True)
    _, d2 = run(model, batch, differentiable_giou=False)
    (5 * d2["box_loss"]).backward()
    g_box = [p.grad.clone() for p in model.fuse.parameters()]
    assert all(torch.allclose(a, b) for a, b in zip(g_total, g_box))

    m_bug, giou_bug = train(batch, differentiable_giou=False)
    m_box, _ = train(batch, differentiable_giou=False, drop_giou=True)
    assert all(torch.equal(a, b) for a, b in zip(m_bug.parameters(), m_box.parameters()))

    model_fix = GroundingHead()
    loss_fix, _ = run(model_fix, batch, differentiable_giou=True)
    loss_fix.backward()
    assert model_fix.size_head.weight.grad is not None and model_fix.size_head.weight.grad.abs().sum() > 0
    _, giou_fix = train(batch, differentiable_giou=True)
    print("1 - GIoU after training: numpy GIoU %.3f, torch GIoU %.3f" % (giou_bug, giou_fix))
    assert giou_fix < giou_bug - 0.05


if __name__ == "__main__":
    main()
