"""
expect: none
dynamic: dismiss
source: https://github.com/DRSAD/Implementation-of-Learning-without-Forgetting-for-multi-class/blob/HEAD/myNetwork.py

Class-incremental Learning without Forgetting, laid out like the DRSAD implementation: when a new task arrives the
network grows its classifier with Incremental_learning(), which reads the old weights through .data, builds a
larger nn.Linear and writes the old rows back with self.fc.weight.data[:out_feature] = weight. The loss then
overwrites the old-class columns of the one-hot target in place with the previous model's sigmoid outputs
(target[..., :old_task_size] = old_target) and trains with BCE-with-logits. The .data reads and writes and the
slice assignment look like cut paths and in-place edits, but they happen on fresh tensors outside any recorded
graph (model surgery before the optimizer is built; a target tensor nothing has saved yet). The asserts check that
the grown head keeps the old rows exactly, that the new head's weight is a live Parameter that receives gradients
and moves, and that training on the new task lowers the loss while the old classes stay close to the old model.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Network(nn.Module):
    def __init__(self, numclass, in_dim=10, feat_dim=16):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU())
        self.fc = nn.Linear(feat_dim, numclass, bias=True)

    def forward(self, x):
        return self.fc(self.feature(x))

    def Incremental_learning(self, numclass):
        weight = self.fc.weight.data
        bias = self.fc.bias.data
        in_feature = self.fc.in_features
        out_feature = self.fc.out_features

        self.fc = nn.Linear(in_feature, numclass, bias=True)
        self.fc.weight.data[:out_feature] = weight
        self.fc.bias.data[:out_feature] = bias


def get_one_hot(target, num_class):
    return F.one_hot(target, num_class).float()


def compute_loss(model, old_model, imgs, target, numclass):
    output = model(imgs)
    target = get_one_hot(target, numclass)
    if old_model is None:
        return F.binary_cross_entropy_with_logits(output, target)
    old_target = torch.sigmoid(old_model(imgs))
    old_task_size = old_target.shape[1]
    target[..., :old_task_size] = old_target
    return F.binary_cross_entropy_with_logits(output, target)


def train(model, old_model, x, y, numclass, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    losses = []
    for _ in range(steps):
        loss = compute_loss(model, old_model, x, y, numclass)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


x1, y1 = torch.randn(64, 10), torch.randint(0, 2, (64,))
x2, y2 = torch.randn(64, 10) + 1.0, torch.randint(2, 4, (64,))

model = Network(2)
train(model, None, x1, y1, 2, 50)
old_model = copy.deepcopy(model).eval()
old_rows = model.fc.weight.detach().clone()

model.Incremental_learning(4)
assert torch.equal(model.fc.weight[:2].detach(), old_rows)
assert isinstance(model.fc.weight, nn.Parameter) and model.fc.weight.requires_grad
new_before = model.fc.weight.detach().clone()

losses = train(model, old_model, x2, y2, 4, 60)
assert model.fc.weight.grad is not None and model.fc.weight.grad[2:].abs().sum() > 0
assert not torch.equal(model.fc.weight.detach(), new_before)
assert losses[-1] < losses[0]
with torch.no_grad():
    drift = (torch.sigmoid(model(x2)[:, :2]) - torch.sigmoid(old_model(x2))).abs().mean().item()
assert drift < 0.1, drift
print("task-2 loss", round(losses[0], 4), "->", round(losses[-1], 4), "| old-class drift", round(drift, 4))
print("ok")
