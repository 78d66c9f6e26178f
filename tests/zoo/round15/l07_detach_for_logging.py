"""
expect: none
dynamic: dismiss
source: https://github.com/Visual-Behavior/aloception-oss/pull/299

The PR detaches the metric tensors and model outputs that are only kept for logging and
visualisation, so the stored values stop holding the autograd graph. This program rebuilds a
detection-style training module whose `training_step` returns the attached loss for the optimizer
but stores `loss.detach()`, per-term losses and `.detach().cpu()` predictions in a logging buffer
and a visualisation callback. The detached copies feed nothing that is trained: every parameter gets
a gradient, the weights move, the loss falls, and none of the logged tensors carries a grad_fn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.cls = nn.Linear(32, 4)
        self.box = nn.Linear(32, 4)

    def forward(self, x):
        h = self.backbone(x)
        return {"logits": self.cls(h), "boxes": torch.sigmoid(self.box(h))}


class VisualisationCallback:
    def __init__(self):
        self.frames = []

    def on_batch_end(self, outputs):
        self.frames.append({k: v.detach().cpu() for k, v in outputs.items()})


class DetectionModule:
    def __init__(self):
        self.model = BoxHead()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.log_buffer = []
        self.callback = VisualisationCallback()

    def training_step(self, x, labels, boxes):
        outputs = self.model(x)
        cls_loss = F.cross_entropy(outputs["logits"], labels)
        box_loss = F.l1_loss(outputs["boxes"], boxes)
        loss = cls_loss + 5.0 * box_loss
        self.log_buffer.append({"loss": loss.detach(), "cls": cls_loss.detach(), "box": box_loss.detach()})
        self.callback.on_batch_end(outputs)
        return loss

    def fit(self, batches):
        for x, labels, boxes in batches:
            self.opt.zero_grad()
            loss = self.training_step(x, labels, boxes)
            loss.backward()
            grads = [p.grad for p in self.model.parameters()]
            self.opt.step()
        return grads


x = torch.randn(32, 10)
labels = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
boxes = torch.sigmoid(x[:, 2:6])
module = DetectionModule()
w0 = [p.detach().clone() for p in module.model.parameters()]
grads = module.fit([(x, labels, boxes)] * 40)

assert all(g is not None and g.abs().sum() > 0 for g in grads)
assert all(not torch.equal(a, b.detach()) for a, b in zip(w0, module.model.parameters()))
assert module.log_buffer[-1]["loss"] < 0.5 * module.log_buffer[0]["loss"]
assert all(v.grad_fn is None for entry in module.log_buffer for v in entry.values())
assert all(v.grad_fn is None for frame in module.callback.frames for v in frame.values())
print("ok: detaching only the logged copies leaves training intact")
