"""
expect: GL003 66
dynamic: confirm
source: https://github.com/kazuto1011/grad-cam-pytorch/issues/33

A user wanted Grad-CAM maps while running their model "in inference", i.e. inside the
usual `with torch.no_grad():` evaluation loop, and found that the hooked conv output had
no grad_fn and no gradient ever reached the stored gradient map.  The maintainer's answer:
model.eval() is fine, but torch.no_grad() turns gradient recording off, so the backward
pass that Grad-CAM needs has nothing to run through.  This reproduction has a small
weakly-supervised localisation setup: a conv classifier is trained on images whose class
is marked by a bright square, then an evaluation loop computes Grad-CAM maps to score
localisation.  The helper `grad_cam()` differentiates the class score with respect to the
hooked activation; called from inside the no_grad evaluation loop it raises
"element 0 of tensors does not require grad", which the assert catches.  Running the same
helper with gradient recording enabled (outside the no_grad block) gives maps whose peak
falls inside the square for most images.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(n):
    x = torch.randn(n, 1, 12, 12) * 0.3
    y = torch.randint(0, 2, (n,))
    corners = torch.randint(0, 8, (n, 2))
    for i in range(n):
        r, c = corners[i].tolist()
        x[i, 0, r:r + 4, c:c + 4] += 2.0 if y[i] == 1 else -2.0
    return x, y, corners


model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2),
)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(150):
    x, y, _ = make_batch(32)
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()


def grad_cam(net, layer, x, cls):
    store = {}
    handle = layer.register_forward_hook(lambda m, i, o: store.setdefault("act", o))
    scores = net(x)
    handle.remove()
    picked = scores.gather(1, cls[:, None]).sum()
    grads, = torch.autograd.grad(picked, store["act"])
    cam = F.relu((grads.mean(dim=(2, 3), keepdim=True) * store["act"]).sum(1))
    return cam.detach()


model.eval()
x_val, y_val, corners_val = make_batch(16)
with torch.no_grad():
    logits = model(x_val)
    try:
        cams = grad_cam(model, model[2], x_val, logits.argmax(1))
        raised = None
    except RuntimeError as err:
        raised = str(err)
assert raised is not None and "does not require grad" in raised, raised

cams = grad_cam(model, model[2], x_val, logits.argmax(1))
hits = 0
for i in range(16):
    peak = cams[i].flatten().argmax().item()
    r, c = divmod(peak, 12)
    r0, c0 = corners_val[i].tolist()
    hits += int(r0 - 1 <= r <= r0 + 4 and c0 - 1 <= c <= c0 + 4)
assert cams.abs().sum() > 0
assert hits >= 10, hits
print("inside no_grad: backward refused (caught); with grad enabled: %d/16 CAM peaks on the square" % hits)
