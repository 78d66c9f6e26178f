"""
expect: none
dynamic: dismiss
source: none, invented

A tiny CNN is trained to tell whether a blob sits in the upper-left quadrant of an image (a distractor blob
in the lower-right appears in both classes), and an explainer then computes vanilla-gradient saliency maps. The explainer deliberately makes its own leaf,
`images.clone().detach().requires_grad_()`, and takes `torch.autograd.grad` of the class scores with
respect to it; nothing is backpropagated into the model and no optimizer runs on this path, so the switch
is exactly what a saliency map needs. The asserts show the maps are non-zero, that they concentrate on
the quadrant the classifier actually uses, that a small step along the gradient raises the score, and
that the model's parameter `.grad` fields are left as they were.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SaliencyExplainer:
    def __init__(self, model):
        self.model = model

    def explain(self, images, target):
        self.model.eval()
        pixels = images.clone().detach().requires_grad_()
        scores = self.model(pixels).gather(1, target[:, None]).sum()
        grad, = torch.autograd.grad(scores, pixels)
        return grad, grad.abs().amax(dim=1)


def blobs(n=400, size=16):
    label = torch.randint(0, 2, (n,))
    imgs = 0.1 * torch.randn(n, 1, size, size)
    for k in range(n):
        if label[k]:
            r, c = torch.randint(1, 6, (2,))
            imgs[k, 0, r - 1:r + 2, c - 1:c + 2] += 1.0
        r, c = torch.randint(9, 14, (2,))  # distractor present in both classes
        imgs[k, 0, r - 1:r + 2, c - 1:c + 2] += 1.0
    return imgs, label


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 16 * 16, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    imgs, label = blobs()
    for epoch in range(3):
        for i in range(0, 400, 40):
            loss = F.cross_entropy(net(imgs[i:i + 40]), label[i:i + 40])
            opt.zero_grad()
            loss.backward()
            opt.step()
    grads_before = [p.grad.clone() for p in net.parameters()]

    explainer = SaliencyExplainer(net)
    probe, probe_label = imgs[:32], torch.ones(32, dtype=torch.long)
    grad, saliency = explainer.explain(probe, probe_label)

    assert saliency.shape == (32, 16, 16) and saliency.abs().sum() > 0
    upper_left = saliency[:, :8, :8].mean()
    lower_right = saliency[:, 8:, 8:].mean()
    assert upper_left > lower_right, (upper_left, lower_right)
    with torch.no_grad():
        base = net(probe)[:, 1].sum()
        nudged = net(probe + 1e-3 * grad.sign())[:, 1].sum()
    assert nudged > base
    assert all(torch.equal(a, p.grad) for a, p in zip(grads_before, net.parameters()))
    print(f"saliency upper-left {upper_left:.4f} vs lower-right {lower_right:.4f}")
