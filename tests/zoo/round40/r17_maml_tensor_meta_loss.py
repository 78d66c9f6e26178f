"""expect: GL002 82
dynamic: confirm
source: https://github.com/McKnightA/MuTaSeSuMeLe/blob/31192d1c6de04cb0097a82c261c771cc06ef4f24/MetaOptimizer.py

Multi-task self-supervised meta-learning: a shared backbone is adapted on each self-supervised task (masked
reconstruction, sign prediction) in an inner loop, the adapted backbone is scored on the downstream test task,
and the outer loop should move the shared initialisation and the test head. The MAML class collects the
per-task test losses in a list and averages them with `torch.mean(torch.tensor(meta_losses,
requires_grad=True))`: torch.tensor copies the loss values into a new leaf, so backward() stops there and
meta_optim.step() has nothing to apply. The asserts show every meta parameter keeps a None gradient and does
not move, while averaging with torch.stack gives them gradients and lowers the meta loss.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")
torch.manual_seed(0)
torch.set_num_threads(1)


class MaskedReconstruction(nn.Module):
    def __init__(self, dim, emb):
        super().__init__()
        self.task_head = nn.Linear(emb, dim)

    def generate_loss(self, backbone_fn, data):
        mask = (torch.rand_like(data) < 0.3).float()
        return F.mse_loss(self.task_head(backbone_fn(data * (1 - mask))), data)


class SignPrediction(nn.Module):
    def __init__(self, dim, emb):
        super().__init__()
        self.task_head = nn.Linear(emb, dim)

    def generate_loss(self, backbone_fn, data):
        return F.binary_cross_entropy_with_logits(self.task_head(backbone_fn(data)), (data > 0).float())


class Classification(nn.Module):
    def __init__(self, emb, n_classes):
        super().__init__()
        self.task_head = nn.Linear(emb, n_classes)

    def generate_loss(self, embedding, labels):
        return F.cross_entropy(self.task_head(embedding), labels)


class MAML:
    def __init__(self, training_tasks, test_task, backbone, inner_lr, meta_optim):
        self.tasks = training_tasks
        self.test_task = test_task
        self.backbone = backbone
        self.inner_lr = inner_lr
        params = list(self.backbone.parameters()) + list(test_task.task_head.parameters())
        self.meta_optim = meta_optim(params)

    def inner_loop(self, task, data, grad_steps):
        weights = dict(self.backbone.named_parameters())
        for _ in range(grad_steps):
            loss = task.generate_loss(lambda x: functional_call(self.backbone, weights, (x,)), data)
            grads = torch.autograd.grad(loss, list(weights.values()) + list(task.task_head.parameters()))
            weights = {name: w - self.inner_lr * g for (name, w), g in zip(weights.items(), grads)}
        return weights

    def task_losses(self, data, labels, inner_grad_steps):
        meta_losses = []
        for task in self.tasks:
            adapted = self.inner_loop(task, data, inner_grad_steps)
            embedding = functional_call(self.backbone, adapted, (data,))
            meta_losses.append(self.test_task.generate_loss(embedding, labels))
        return meta_losses

    def outer_loop(self, data_batch, inner_grad_steps):
        data, labels = data_batch
        self.meta_optim.zero_grad()
        meta_losses = self.task_losses(data, labels, inner_grad_steps)
        averaged_meta_loss = torch.mean(torch.tensor(meta_losses, requires_grad=True))
        averaged_meta_loss.backward(retain_graph=True)
        self.meta_optim.step()
        return averaged_meta_loss


DIM, EMB = 10, 16
data = torch.randn(32, DIM)
labels = (data[:, 0] + data[:, 1] > 0).long()


def build():
    torch.manual_seed(1)
    backbone = nn.Sequential(nn.Linear(DIM, EMB), nn.Tanh(), nn.Linear(EMB, EMB))
    tasks = [MaskedReconstruction(DIM, EMB), SignPrediction(DIM, EMB)]
    return MAML(tasks, Classification(EMB, 2), backbone, 0.1, lambda p: torch.optim.Adam(p, lr=0.01))


maml = build()
meta_params = list(maml.backbone.parameters()) + list(maml.test_task.task_head.parameters())
start = [p.detach().clone() for p in meta_params]
for _ in range(5):
    maml.outer_loop((data, labels), inner_grad_steps=2)
assert all(p.grad is None for p in meta_params)
assert all(torch.equal(p, s) for p, s in zip(meta_params, start))

fixed = build()
fixed_params = list(fixed.backbone.parameters()) + list(fixed.test_task.task_head.parameters())
history = []
for step in range(40):
    fixed.meta_optim.zero_grad()
    meta_loss = torch.stack(fixed.task_losses(data, labels, 2)).mean()
    meta_loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed_params)
    fixed.meta_optim.step()
    history.append(meta_loss.item())
assert history[-1] < 0.7 * history[0], history
print("stacked meta loss: %.3f -> %.3f" % (history[0], history[-1]))
