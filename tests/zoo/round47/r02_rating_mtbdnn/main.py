"""
expect: GL002 model.py:30, GL003 main.py:40
dynamic: confirm
source: https://github.com/lucasxlu/DataHouse/blob/a4ec8d48461b5d28908d7f2ca9fdf5004866864f/DataHouse/zhihu/zhihu_live_regressor.py

A rating regressor for a recommendation feed (score of a paid live session from 23
tabular features) built as an MTB-DNN: a shared trunk and two branches whose outputs
are averaged. The forward pass adds each branch output into a NumPy buffer through
`.data.cpu().numpy()` and then turns the buffer back into a tensor with
`torch.from_numpy`, so the prediction has no autograd history. The MSE loss then
fails with "does not require grad", which the trainer silences with
`loss.requires_grad = True`; backward now only reaches the loss leaf and none of
the trunk or branch parameters. The asserts show every parameter has no gradient
and is bit-for-bit unchanged after the optimizer steps, while the same model with
the branch outputs summed as tensors gets gradients and moves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import MTBDNN

BATCH = 16


class MTBDNNTensorSum(MTBDNN):
    def forward(self, x):
        shared = self.trunk(x)
        outs = [branch[1](F.relu(branch[0](shared))) for branch in self.branches]
        return torch.stack(outs, 0).sum(0) / self.k


def train(model, features, scores, steps=5):
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for i in range(steps):
        xb, yb = features[i * BATCH:(i + 1) * BATCH], scores[i * BATCH:(i + 1) * BATCH]
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.requires_grad = True  # explicitly declare require gradient
        loss.backward()
        optimizer.step()
    return model


torch.manual_seed(0)
torch.set_num_threads(1)
features = torch.rand(5 * BATCH, 23)
scores = torch.rand(5 * BATCH, 1) * 5

buggy = MTBDNN(batch_size=BATCH)
before = [p.detach().clone() for p in buggy.parameters()]
train(buggy, features, scores)
assert all(p.grad is None for p in buggy.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, buggy.parameters()))

fixed = MTBDNNTensorSum(batch_size=BATCH)
fixed.load_state_dict(buggy.state_dict())
before = [p.detach().clone() for p in fixed.parameters()]
optimizer = torch.optim.SGD(fixed.parameters(), lr=0.01)
loss = nn.MSELoss()(fixed(features[:BATCH]), scores[:BATCH])
loss.backward()
assert all(p.grad is not None for p in fixed.parameters())
assert fixed.trunk.fc1.weight.grad.abs().sum() > 0
optimizer.step()
assert not torch.equal(before[0], fixed.trunk.fc1.weight)
print("numpy-summed model frozen; tensor-summed model trains")
