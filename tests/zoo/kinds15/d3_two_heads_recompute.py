"""
expect: none
dynamic: dismiss
source: kind D

A vision model with a shared conv backbone has a classification head and a box-regression head,
each with its own optimizer; the update steps the two heads one after the other on their own
losses, then recomputes the joint loss through the backbone and both heads after the steps and
backpropagates it to train the backbone. No saved tensor is stale, and the asserts show the
backbone and both heads change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)

backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
cls_head = nn.Linear(8, 4)
box_head = nn.Linear(8, 4)
backbone_opt = torch.optim.SGD(backbone.parameters(), lr=0.1)
cls_opt = torch.optim.SGD(cls_head.parameters(), lr=0.1)
box_opt = torch.optim.SGD(box_head.parameters(), lr=0.1)

images = torch.randn(5, 3, 10, 10)
labels = torch.randint(0, 4, (5,))
boxes = torch.rand(5, 4)


def update():
    feats = backbone(images).detach()
    cls_loss = F.cross_entropy(cls_head(feats), labels)
    cls_opt.zero_grad()
    cls_loss.backward()
    cls_opt.step()

    box_loss = F.smooth_l1_loss(box_head(feats), boxes)
    box_opt.zero_grad()
    box_loss.backward()
    box_opt.step()

    live = backbone(images)
    joint = F.cross_entropy(cls_head(live), labels) + F.smooth_l1_loss(box_head(live), boxes)
    backbone_opt.zero_grad()
    joint.backward()
    backbone_opt.step()


before = [m.weight.detach().clone() for m in (backbone[0], cls_head, box_head)]
update()
after = [m.weight.detach() for m in (backbone[0], cls_head, box_head)]
assert all(not torch.equal(b, a) for b, a in zip(before, after))
print("ok")
