"""
expect: GL001 cam_extractor.py:26
dynamic: confirm
source: https://github.com/frgfm/torch-cam/issues/195

In the thread a user trains a classifier and adds a custom loss on the Grad-CAM maps
returned by the CAM extractor (built once, called every step with retain_graph=True),
hoping to steer where the network looks.  The loss does not help and `cams.requires_grad`
prints False.  The extractor's forward hook stores the hooked layer's output with
`.detach()` (the library's hook keeps a detached copy too), so every map is assembled from a copy that
is cut from the record: the CAM term is a constant added to the cross-entropy and the
convolution weights get exactly the same gradient as without it.  This reproduction uses
a tiny conv net and a loss that asks the map to put its mass inside a box.  The asserts
show that with the detaching hook the maps do not require grad and the gradient of
CE + CAM-loss equals the gradient of CE alone; with the hook keeping the live output
(keep_graph=True) the CAM term changes the gradient and the in-box mass of the maps rises
over a few steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from cam_extractor import GradCAMExtractor

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3),
    )


images = torch.randn(6, 3, 8, 8)
labels = torch.randint(0, 3, (6,))
box = torch.zeros(6, 8, 8)
box[:, 2:6, 2:6] = 1.0


def cam_box_loss(cams):
    mass_in = (cams * box).sum(dim=(1, 2))
    mass_all = cams.sum(dim=(1, 2)) + 1e-6
    return (1.0 - mass_in / mass_all).mean()


def grads_of(model, loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


def run(keep_graph, steps=25):
    torch.manual_seed(1)
    model = make_model()
    extractor = GradCAMExtractor(model, model[2], keep_graph=keep_graph)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)

    # gradient check on the first batch: CE alone versus CE + CAM term
    scores = model(images)
    cams = extractor(scores, labels)
    ce = F.cross_entropy(scores, labels)
    g_ce = grads_of(model, ce)
    scores = model(images)
    cams = extractor(scores, labels)
    total = F.cross_entropy(scores, labels) + 5.0 * cam_box_loss(cams)
    g_total = grads_of(model, total)
    same = all(torch.allclose(a, b) for a, b in zip(g_ce, g_total))

    start = cam_box_loss(cams).item()
    for _ in range(steps):
        opt.zero_grad()
        scores = model(images)
        cams = extractor(scores, labels)
        loss = F.cross_entropy(scores, labels) + 5.0 * cam_box_loss(cams)
        loss.backward()
        opt.step()
    scores = model(images)
    end = cam_box_loss(extractor(scores, labels)).item()
    extractor.remove()
    return cams.requires_grad, same, start, end


req_bug, same_bug, s_bug, e_bug = run(keep_graph=False)
assert req_bug is False, "detaching hook: maps must not require grad"
assert same_bug, "detaching hook: CAM term must add nothing to the gradient"

req_fix, same_fix, s_fix, e_fix = run(keep_graph=True)
assert req_fix is True
assert not same_fix, "live activation: CAM term must change the gradient"
assert e_fix < s_fix - 0.02, (s_fix, e_fix)
assert e_fix < e_bug, (e_fix, e_bug)

print("detached hook: CAM loss %.3f -> %.3f (term ignored)" % (s_bug, e_bug))
print("live hook:     CAM loss %.3f -> %.3f" % (s_fix, e_fix))
