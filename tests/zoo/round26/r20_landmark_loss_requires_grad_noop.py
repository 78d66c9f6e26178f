"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/pytorch/pull/163263

The PyTorch PR notes an asymmetry: setting .requires_grad = True on a non-leaf raises,
but calling .requires_grad_(True) on a non-leaf that already requires grad silently
does nothing. Training scripts often carry a cargo-cult loss.requires_grad_(True) before
backward (copied from "element 0 of tensors does not require grad" answers). When the
loss already comes from the model, that call is a no-op, not a graph cut. Here a facial
landmark regressor computes an NME-style loss in a helper and the trainer calls
loss.requires_grad_(True); the asserts show the grad_fn is unchanged, the gradients are
identical to a run without the call, and the landmark error goes down.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
N_PTS, IMG = 68, 32


def cal_loss(landmarks, label, d=IMG):
    dx = label[:, 0::2] - landmarks[:, 0::2]
    dy = label[:, 1::2] - landmarks[:, 1::2]
    return (torch.sqrt(dx ** 2 + dy ** 2 + 1e-8) / d).mean(1).sum()


model = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
                      nn.Flatten(), nn.Linear(8 * 16 * 16, 2 * N_PTS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
images = torch.rand(16, 1, IMG, IMG)
labels = torch.rand(16, 2 * N_PTS) * IMG


def train_step(call_requires_grad):
    loss = cal_loss(model(images), labels)
    fn_before = loss.grad_fn
    if call_requires_grad:
        loss.requires_grad_(True)
    assert loss.grad_fn is fn_before
    opt.zero_grad()
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


_, g_with = train_step(True)
_, g_without = train_step(False)
for a, b in zip(g_with, g_without):
    assert torch.equal(a, b) and a.abs().sum() > 0

first = cal_loss(model(images), labels).item()
for _ in range(30):
    train_step(True)
    opt.step()
last = cal_loss(model(images), labels).item()
assert last < first
print("ok: requires_grad_(True) on a graph-connected loss is a no-op; loss", round(first, 2), "->", round(last, 2))
