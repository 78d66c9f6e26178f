"""
expect: GL005 main.py:43, GL005 main.py:49
dynamic: confirm
source: https://github.com/hyseob/SagNet/issues/3

Domain generalisation with SagNet: one forward yields the content prediction y and the
style prediction y_style; three optimisers then update the style head, the stem (adversarially
against the style head) and the whole net. The train step backwards loss_style with
retain_graph=True and immediately calls optimizer_style.step(), which rewrites the style-head
weights in place although the retained graph still needs them for loss_adv.backward(); then
optimizer_adv.step() rewrites the stem weights that the content branch saved for the final
loss.backward(). With PyTorch >= 1.5 each raises "modified by an inplace operation" (the
report; the workaround offered in the thread was going back to torch <= 1.4, where the same
code silently used the new weights for old activations). The asserts catch the first error,
then disable the style step to show the adversarial step breaks the content backward too, and
show that taking all three gradients before any step trains without error.
"""
import torch
import torch.nn.functional as F
from torch import optim

from sagnet import AdvLoss, SagNet

torch.manual_seed(0)
torch.set_num_threads(1)

model = SagNet()
optimizer = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
optimizer_style = optim.SGD(model.style_params(), lr=0.05, momentum=0.9)
optimizer_adv = optim.SGD(model.adv_params(), lr=0.05, momentum=0.9)
criterion, criterion_adv = torch.nn.CrossEntropyLoss(), AdvLoss()
w_adv = 0.1

data = torch.randn(12, 3, 32)
label = torch.randint(0, 4, (12,))


def train_step(data, label):
    y, y_style = model(data)
    loss_style = criterion(y_style, label)
    optimizer_style.zero_grad()
    loss_style.backward(retain_graph=True)
    optimizer_style.step()

    loss_adv = w_adv * criterion_adv(y_style)
    optimizer_adv.zero_grad()
    loss_adv.backward(retain_graph=True)
    torch.nn.utils.clip_grad_norm_(model.adv_params(), 0.1)
    optimizer_adv.step()

    loss = criterion(y, label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def expect_inplace_error():
    try:
        train_step(data, label)
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
        return True
    return False


assert expect_inplace_error(), "optimizer_style.step() should break loss_adv.backward()"

real_style_step = optimizer_style.step
optimizer_style.step = lambda *a, **k: None  # isolate the second in-place edit
assert expect_inplace_error(), "optimizer_adv.step() should break the content backward"
real_adv_step = optimizer_adv.step
optimizer_adv.step = lambda *a, **k: None
assert not expect_inplace_error(), "with both in-place steps disabled the step runs"
optimizer_style.step, optimizer_adv.step = real_style_step, real_adv_step


def fixed_step(data, label):
    y, y_style = model(data)
    loss_style = criterion(y_style, label)
    loss_adv = w_adv * criterion_adv(y_style)
    loss = criterion(y, label)
    g_style = torch.autograd.grad(loss_style, model.style_params(), retain_graph=True)
    g_adv = torch.autograd.grad(loss_adv, list(model.adv_params()), retain_graph=True)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    for p, g in zip(model.style_params(), g_style):
        p.grad = g
    optimizer_style.step()
    for p, g in zip(model.adv_params(), g_adv):
        p.grad = g
    optimizer_adv.step()
    return loss.item()


losses = [fixed_step(data, label) for _ in range(30)]
assert losses[-1] < losses[0]
print(f"both in-place optimizer steps reproduced; fixed ordering trains: {losses[0]:.3f} -> {losses[-1]:.3f}")
