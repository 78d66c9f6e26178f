"""
expect: GL003 58
dynamic: confirm

From a detection-toolbox report: a user freezes the backbone to fine-tune only
a newly added neck layer and training dies with "element 0 of tensors does not
require grad". Here the detector's extract_feat runs the frozen backbone under
no_grad to save memory but the new neck sits inside the same block, so the
loss has no history; the train step then "fixes" the error by flipping
requires_grad on the loss. Training runs but the new neck never learns: the
asserts show its grad is None and its weights are unchanged, while running
the neck outside no_grad trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SingleStageDetector(nn.Module):
    def __init__(self, neck_in_no_grad):
        super().__init__()
        torch.manual_seed(0)
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.neck = nn.Conv2d(8, 8, 1)  # the new layer to fine-tune
        self.cls_head = nn.Conv2d(8, 2, 1)
        self.neck_in_no_grad = neck_in_no_grad
        for m in (self.backbone, self.cls_head):
            for p in m.parameters():
                p.requires_grad = False

    def extract_feat(self, img):
        with torch.no_grad():
            feat = self.backbone(img)
            if self.neck_in_no_grad:
                feat = self.neck(feat)
        if not self.neck_in_no_grad:
            feat = self.neck(feat)
        return feat

    def forward_train(self, img, target):
        logits = self.cls_head(self.extract_feat(img))
        return F.cross_entropy(logits, target)


img = torch.randn(4, 3, 8, 8)
target = torch.randint(0, 2, (4, 8, 8))


def train(det, steps=5):
    opt = torch.optim.SGD(det.neck.parameters(), lr=0.5)
    w0 = det.neck.weight.clone()
    for _ in range(steps):
        loss = det.forward_train(img, target)
        if loss.grad_fn is None:
            loss.requires_grad = True  # the forum fix for "does not require grad"
        opt.zero_grad()
        loss.backward()
        opt.step()
    return w0


bad = SingleStageDetector(neck_in_no_grad=True)
w0 = train(bad)
assert bad.neck.weight.grad is None
assert torch.equal(bad.neck.weight, w0)

good = SingleStageDetector(neck_in_no_grad=False)
w0 = train(good)
assert good.neck.weight.grad is not None and good.neck.weight.grad.abs().sum() > 0
assert not torch.equal(good.neck.weight, w0)
print("ok")
