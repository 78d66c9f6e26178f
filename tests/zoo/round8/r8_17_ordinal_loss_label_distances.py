"""
expect: none
dynamic: dismiss
source: https://github.com/glanceable-io/ordinal-log-loss/issues/2

Ordinal log loss (OLL) in a Trainer.compute_loss override: label values are
pulled out with `labels[k].item()`, a Python list of class distances is built
from a distance matrix, and it is rebuilt as
`torch.tensor(distances, requires_grad=True)`. The issue asks whether that
requires_grad is needed. It is not, but it is harmless: the distances come
from the labels, which nothing trains, and the model's path to the loss goes
through `probas`, untouched by the round trip. Asserted: the model's gradients
equal those computed with a plain constant distance tensor, and training
lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_CLASSES = 5
dist_matrix = [[abs(i - j) for j in range(NUM_CLASSES)] for i in range(NUM_CLASSES)]


def compute_loss(model, inputs, labels, flag_requires_grad=True):
    probas = F.softmax(model(inputs), dim=1)
    true_labels = [NUM_CLASSES * [labels[k].item()] for k in range(len(labels))]
    label_ids = len(labels) * [list(range(NUM_CLASSES))]
    distances = [[float(dist_matrix[true_labels[j][i]][label_ids[j][i]]) for i in range(NUM_CLASSES)]
                 for j in range(len(labels))]
    distances_tensor = torch.tensor(distances, requires_grad=flag_requires_grad)
    err = -torch.log(1 - probas + 1e-7) * abs(distances_tensor) ** 2
    return torch.sum(err, axis=1).mean()


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, NUM_CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 6)
y = torch.randint(0, NUM_CLASSES, (32,))

model.zero_grad()
compute_loss(model, x, y, True).backward()
g_flag = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
compute_loss(model, x, y, False).backward()
for a, p in zip(g_flag, model.parameters()):
    assert torch.equal(a, p.grad), "requires_grad on the distances changed the gradient"

losses = []
for _ in range(40):
    opt.zero_grad()
    loss = compute_loss(model, x, y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.8 * losses[0], losses
print("OK: OLL trains the model (%.3f -> %.3f)" % (losses[0], losses[-1]))
