"""
expect: GL001 gradcam.py:15
expect: GL001 gradcam.py:35
dynamic: confirm
source: https://github.com/mmasana/FACIL/issues/37

The report (FACIL, class-incremental learning) found that the LwM attention-distillation
loss has no gradient: the Grad-CAM helper stores the hooked activations with
output.detach() and builds the attention map under torch.no_grad(), so the term
||att_old - att_new|| adds a number to the loss and nothing to the new model. This program
trains a new task with cross-entropy + gamma * attention distillation through that helper.
The asserts show the backbone gradient is identical with gamma 1 and gamma 0, and that a
helper keeping the activations on the graph makes gamma change the gradient.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from gradcam import GradCAM

torch.manual_seed(0)
torch.set_num_threads(1)


class SmallCNN(nn.Module):
    def __init__(self, n_cls=6):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.conv2 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, n_cls)

    def forward(self, x):
        return self.head(self.conv2(self.conv1(x)).mean(dim=(2, 3)))


class GradCAMOnGraph(GradCAM):
    """Same helper, but the activations stay on the graph (the fix discussed in the thread)."""

    def __enter__(self):
        def forward_hook(module, inputs, output):
            self.activations = output

        def backward_hook(module, grad_input, grad_output):
            self.gradients = grad_output[0].detach()

        self._fwd = self.target_layer.register_forward_hook(forward_hook)
        self._bwd = self.target_layer.register_full_backward_hook(backward_hook)
        return self

    def __call__(self, images, class_indices=None):
        model_output = self.model(images)
        idx = model_output.argmax(dim=1) if class_indices is None else class_indices
        self.model.zero_grad()
        acts = self.activations
        model_output.gather(1, idx[:, None]).sum().backward(retain_graph=True)
        weights = F.adaptive_avg_pool2d(self.gradients, 1)
        return F.relu((weights * acts).sum(dim=1, keepdim=True))


def attention_distillation(att_old, att_new):
    a = F.normalize(att_old.flatten(1), dim=1)
    b = F.normalize(att_new.flatten(1), dim=1)
    return (a - b).abs().sum(dim=1).mean()


def backbone_grad(model, model_old, images, labels, gamma, cam_cls=GradCAM):
    with cam_cls(model_old, model_old.conv2) as cam_old:
        att_old = cam_old(images)
    with cam_cls(model, model.conv2) as cam_new:
        att_new = cam_new(images)
    model.zero_grad()
    loss = F.cross_entropy(model(images), labels) + gamma * attention_distillation(att_old.detach(), att_new)
    loss.backward()
    return loss.item(), model.conv1[0].weight.grad.clone()


model_old = SmallCNN()
model = copy.deepcopy(model_old)
with torch.no_grad():                                     # pretend the new task moved the weights
    for p in model.parameters():
        p.add_(0.3 * torch.randn_like(p))
model_old.eval()                                          # old model: never stepped, only queried

images, labels = torch.randn(8, 3, 10, 10), torch.randint(0, 6, (8,))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(3):                                        # the LwM step runs fine
    backbone_grad(model, model_old, images, labels, gamma=1.0)
    opt.step()

l1, g1 = backbone_grad(model, model_old, images, labels, gamma=1.0)
l0, g0 = backbone_grad(model, model_old, images, labels, gamma=0.0)
assert l1 > l0 + 1e-4, "the attention term is part of the reported loss"
assert torch.equal(g1, g0), "but it contributes no gradient to the backbone"

_, gf = backbone_grad(model, model_old, images, labels, 1.0, cam_cls=GradCAMOnGraph)
assert not torch.allclose(gf, g0), "with activations kept on the graph the term trains"
print("ok: LwM attention distillation adds", round(l1 - l0, 4), "but no gradient")
