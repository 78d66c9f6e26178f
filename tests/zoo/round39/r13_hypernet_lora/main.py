"""
expect: GL001 hyper.py:17, GL001 hyper.py:18
dynamic: confirm
source: https://github.com/KohakuBlueleaf/HyperKohaku/issues/18

HyperDreambooth-style training: a hypernetwork predicts low-rank (LoRA) factors for a frozen
layer; the forward pass "updates the internal matrices" of the LoRA layer and the image loss is
computed through that layer. A user reports that with the image loss alone the hypernetwork
never updates. Here update_weights copies the predicted factors into buffers through `.data`,
which cuts the hypernetwork out of the image loss; only the direct weight-regression loss on the
predictions trains it. The asserts show: image loss alone leaves every hypernetwork .grad None;
with both losses, scaling the image loss by 1000 changes nothing in the hypernetwork's gradient;
a functional variant that uses the predicted factors directly does get image-loss gradients.
"""
import torch
import torch.nn.functional as F
from hyper import HyperNet, LiLoRALinear

torch.manual_seed(0)
torch.set_num_threads(1)

cond = torch.randn(4, 6)
x = torch.randn(16, 8)
target_img = torch.randn(16, 5)

layer = LiLoRALinear(8, 5)
hyper = HyperNet(6, 8, 5)


def step(img_w, weight_w):
    hyper.zero_grad()
    preds = hyper(cond, layer)
    img_loss = F.mse_loss(layer(x), target_img)
    weight_loss = (preds ** 2).mean()
    (img_w * img_loss + weight_w * weight_loss).backward()
    return [None if p.grad is None else p.grad.clone() for p in hyper.parameters()]


g_img_only = step(1.0, 0.0)
assert all(g is None or g.abs().sum() == 0 for g in g_img_only)

g_a = step(1.0, 1.0)
g_b = step(1000.0, 1.0)
for a, b in zip(g_a, g_b):
    assert torch.allclose(a, b)

# fixed: use the predicted factors directly in the forward pass
hyper.zero_grad()
flat = hyper.body(cond).mean(0)
down = flat[:16].view(2, 8)
up = flat[16:].view(5, 2)
out = layer.base(x) + F.linear(F.linear(x, down), up)
F.mse_loss(out, target_img).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in hyper.parameters())
print("ok: image loss never reaches the hypernetwork through .data copy")
