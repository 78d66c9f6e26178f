"""
expect: none
dynamic: dismiss
source: https://github.com/stony-hub/learning_without_memorizing/blob/6363c3ace2293cae6942edb8bf8234fd9c9790a7/network.py

Learning without Memorizing on two class-incremental tasks. After the first
task the network is deep-copied and frozen with requires_grad_(False); the new
task is trained with cross-entropy, a distillation term on the old logits and
an attention-distillation term between Grad-CAM maps of the old and new
networks. The forward pass switches requires_grad on for the last feature map.
That switch is deliberate: for the frozen copy the feature map would otherwise
be a tensor with no history and autograd.grad could not produce the old
Grad-CAM. It turns on gradient tracking only for that activation, not for any
old parameter: the old network gets no gradients and does not move, the new
network gets a gradient from all three terms (including the attention term,
via create_graph=True) and learns the new task.
"""
import copy

import numpy as np
import torch
import torch.nn.functional as F

from network import SmallResNet

torch.manual_seed(0)
torch.set_num_threads(1)

PROTOS = torch.randn(4, 3, 8, 8)


def task_batch(task, n=32):
    y = torch.randint(0, 2, (n,)) + 2 * task
    return PROTOS[y] + 0.5 * torch.randn(n, 3, 8, 8), y


def normalized_grad_cam(feature, out):
    index = np.argmax(out.detach().numpy(), axis=-1)
    onehot = torch.zeros_like(out)
    onehot[torch.arange(out.size(0)), torch.from_numpy(index)] = 1
    grads = torch.autograd.grad(torch.sum(onehot * out), feature, create_graph=True)[0]
    weight = grads.mean(dim=(2, 3), keepdim=True)
    cam = (grads * weight).sum(dim=1)
    return cam / cam.norm()


def t_modify(p):
    p = p ** 0.5
    return p / p.sum(dim=-1, keepdim=True)


net_new = SmallResNet()
opt = torch.optim.Adam(net_new.parameters(), lr=1e-2)
for _ in range(40):
    x, y = task_batch(0)
    opt.zero_grad()
    F.cross_entropy(net_new(x), y).backward()
    opt.step()

net_new.feature = None
net_old = copy.deepcopy(net_new)
net_old.requires_grad_(False)
old_params = [p.clone() for p in net_old.parameters()]


def lwm_losses(x, y, n_old=2):
    y_pred_old = net_old(x)
    y_pred_new = net_new(x)
    loss_c = F.cross_entropy(y_pred_new, y)
    yn, yo = t_modify(y_pred_new[:, :n_old].sigmoid()), t_modify(y_pred_old[:, :n_old].detach().sigmoid())
    loss_d = F.binary_cross_entropy(yn, yo, reduction="none").sum(-1).mean()
    old_map = normalized_grad_cam(net_old.feature, y_pred_old)
    new_map = normalized_grad_cam(net_new.feature, y_pred_new)
    loss_ad = (old_map - new_map).norm(p=1, dim=(1, 2)).mean()
    return loss_c, loss_d, loss_ad


opt = torch.optim.Adam(net_new.parameters(), lr=1e-2)
eval_x, eval_y = task_batch(1, 64)
with torch.no_grad():
    start = F.cross_entropy(net_new(eval_x), eval_y).item()
for _ in range(40):
    x, y = task_batch(1)
    loss_c, loss_d, loss_ad = lwm_losses(x, y)
    opt.zero_grad()
    (loss_c + loss_d + loss_ad).backward()
    opt.step()
    assert all(p.grad is None for p in net_old.parameters())
assert net_old.feature.is_leaf and net_old.feature.requires_grad
assert not any(p.requires_grad for p in net_old.parameters())
loss_c, loss_d, loss_ad = lwm_losses(*task_batch(1))
g_ad = torch.autograd.grad(loss_ad, net_new.fc.weight)[0]
assert loss_ad.item() > 0 and g_ad.abs().sum() > 0
with torch.no_grad():
    end = F.cross_entropy(net_new(eval_x), eval_y).item()
assert end < 0.5 * start
assert all(torch.equal(a, b) for a, b in zip(old_params, net_old.parameters()))
print(f"old net frozen and untouched; new-task CE {start:.2f} -> {end:.2f}; attention term has gradient")
