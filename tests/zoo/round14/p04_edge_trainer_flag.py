"""
expect: GL003 44
dynamic: confirm
source: https://github.com/Lavender105/DFF/issues/13

The report is a training run of an edge-detection network that stops at loss.backward()
with "element 0 of tensors does not require grad and does not have a grad_fn". This program
rebuilds the usual route to that error and its tempting patch: the trainer gets its side
outputs from a predict() helper decorated with torch.no_grad(), and the loss is then
switched on with loss.requires_grad = True so backward() runs. The asserts show that
backward now succeeds but every network parameter keeps .grad None and an unchanged value,
whereas calling the network directly trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EdgeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.side = nn.Conv2d(8, 4, 1)
        self.fuse = nn.Conv2d(4, 4, 1)

    def forward(self, x):
        return self.fuse(self.side(self.backbone(x)))


class EdgeTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.5)

    @torch.no_grad()
    def predict(self, images):
        return self.model(images)

    def step(self, images, target):
        outputs = self.predict(images)
        loss = F.binary_cross_entropy_with_logits(outputs, target)
        loss.requires_grad = True
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def step_direct(self, images, target):
        loss = F.binary_cross_entropy_with_logits(self.model(images), target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


model = EdgeNet()
trainer = EdgeTrainer(model)
images = torch.rand(2, 3, 12, 12)
target = (torch.rand(2, 4, 12, 12) > 0.8).float()

before = [p.detach().clone() for p in model.parameters()]
for _ in range(3):
    trainer.step(images, target)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))

trainer.step_direct(images, target)
assert all(p.grad is not None for p in model.parameters())
assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters()))
print("ok: requires_grad on the loss silences the error but the network never trains")
