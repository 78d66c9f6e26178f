"""
expect: GL005 model.py:24
dynamic: confirm
source: https://github.com/WongKinYiu/yolov7/issues/1527

An adversarial-patch attack optimizes a patch pasted into images so that a frozen detector's objectness
drops. The detector is in eval mode, so its head decodes boxes the way YOLO heads do at inference: it takes
y = x.sigmoid() and then overwrites the box centres y[..., 0:2] in place. SigmoidBackward saves its output
y for the backward pass, so the slice assignment bumps y's version and loss.backward() raises "one of the
variables needed for gradient computation has been modified by an inplace operation" from
SigmoidBackward0, as in the report. The program shows the RuntimeError with the in-place head and that the same
attack, with the decode assembled out of place (torch.cat), gives the patch a non-zero gradient and lowers
the objectness.
"""
import torch

from model import DecodeOutOfPlace, TinyDetector

torch.manual_seed(0)
torch.set_num_threads(1)


def apply_patch(images, patch):
    out = images.clone()
    out[:, :, 8:24, 8:24] = patch
    return out


def objectness_loss(detector, images, patch):
    preds = detector(apply_patch(images, patch))
    return preds[..., 4].mean()


images = torch.rand(2, 3, 64, 64)

detector = TinyDetector().eval()
for p in detector.parameters():
    p.requires_grad_(False)
patch = torch.rand(3, 16, 16, requires_grad=True)

loss = objectness_loss(detector, images, patch)
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the in-place decode to break backward"
assert patch.grad is None

# intended: same weights, decode built out of place -> the patch can be optimized
fixed = TinyDetector(head_cls=DecodeOutOfPlace).eval()
fixed.load_state_dict(detector.state_dict())
for p in fixed.parameters():
    p.requires_grad_(False)
patch2 = patch.detach().clone().requires_grad_(True)
opt = torch.optim.Adam([patch2], lr=0.2)
first = None
for step in range(30):
    opt.zero_grad()
    loss2 = objectness_loss(fixed, images, patch2)
    loss2.backward()
    if first is None:
        first = loss2.item()
        assert patch2.grad is not None and patch2.grad.abs().sum() > 0
    opt.step()
    with torch.no_grad():
        patch2.clamp_(0, 1)
assert loss2.item() < first, (first, loss2.item())
print("in-place head: backward raised; out-of-place head: objectness %.4f -> %.4f" % (first, loss2.item()))
