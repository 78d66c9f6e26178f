"""
expect: GL002 59
dynamic: confirm
source: https://github.com/varinder-singh/EVA4/blob/b930d439bcdaae2f56b99d07aac86fe35543b6a3/S15-B/loss/loss_gradient.py

A monocular depth + mask project (DenseDepth-style) combined three depth
losses in loss/loss.py: a point-wise L1 term, an image-gradient (edge) term
and an SSIM term. The edge term, in loss/loss_gradient.py, ended with `return
loss_grad.item()`, so it leaves autograd as a Python float and comes back into
the total only as a constant in `lambda_1 * pointwise + grad_loss +
loss_ssim`. The logged loss includes the edge error, but training never sees
its gradient, and the sharp depth discontinuities it should enforce are not
learned from it. The program keeps the same split into helper functions.
The asserts show that the buggy total produces exactly the gradients of the
loss without the edge term, so both runs end at identical weights. Returning
the tensor instead changes the gradients and ends with a lower edge error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def gradient(img):
    dx = img[..., :, 1:] - img[..., :, :-1]
    dy = img[..., 1:, :] - img[..., :-1, :]
    return dx, dy


def get_grad_loss(img1, img2, as_float=True):
    dx1, dy1 = gradient(img1)
    dx2, dy2 = gradient(img2)
    loss_grad = torch.mean(torch.abs(dx1 - dx2)) + torch.mean(torch.abs(dy1 - dy2))
    if as_float:
        return loss_grad.item()
    return loss_grad


def get_pointwise_loss(img1, img2):
    return torch.mean(torch.abs(img1 - img2))


def get_ssim_loss(img1, img2, c1=0.01 ** 2, c2=0.03 ** 2):
    mu1, mu2 = F.avg_pool2d(img1, 3, 1, 1), F.avg_pool2d(img2, 3, 1, 1)
    s11 = F.avg_pool2d(img1 * img1, 3, 1, 1) - mu1 ** 2
    s22 = F.avg_pool2d(img2 * img2, 3, 1, 1) - mu2 ** 2
    s12 = F.avg_pool2d(img1 * img2, 3, 1, 1) - mu1 * mu2
    ssim_map = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / ((mu1 ** 2 + mu2 ** 2 + c1) * (s11 + s22 + c2))
    ssim_val = ssim_map.mean()
    return (1 - ssim_val) / 2, ssim_val


def get_loss(output, label, as_float=True, use_grad_term=True):
    lambda_1 = 0.1
    loss_ssim, ssim_val = get_ssim_loss(output, label)
    if use_grad_term:
        loss = lambda_1 * get_pointwise_loss(output, label) + get_grad_loss(output, label, as_float) + loss_ssim
    else:
        loss = lambda_1 * get_pointwise_loss(output, label) + loss_ssim
    return loss, ssim_val


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(12, 12, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(12, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))


def make_scene(n=16, size=16):
    depth = torch.full((n, 1, size, size), 0.8)
    for i in range(n):
        r0, c0 = torch.randint(0, size - 6, (2,)).tolist()
        depth[i, :, r0:r0 + 6, c0:c0 + 6] = 0.3        # a near box with sharp edges
    rgb = torch.cat([depth, 1 - depth, 0.5 * depth], dim=1) + 0.05 * torch.randn(n, 3, size, size)
    return rgb, depth


rgb, depth_gt = make_scene()


def train(steps=120, **loss_kwargs):
    torch.manual_seed(0)
    model = DepthNet()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(steps):
        opt.zero_grad()
        loss, _ = get_loss(model(rgb), depth_gt, **loss_kwargs)
        loss.backward()
        opt.step()
    with torch.no_grad():
        edge_err = get_grad_loss(model(rgb), depth_gt)
    return model, edge_err


# The float edge term adds nothing to the gradient.
torch.manual_seed(0)
probe = DepthNet()
loss_bug, _ = get_loss(probe(rgb), depth_gt)
loss_noedge, _ = get_loss(probe(rgb), depth_gt, use_grad_term=False)
g_bug = torch.autograd.grad(loss_bug, list(probe.parameters()))
g_noedge = torch.autograd.grad(loss_noedge, list(probe.parameters()))
assert loss_bug.item() > loss_noedge.item()
for a, b in zip(g_bug, g_noedge):
    assert torch.equal(a, b)

model_bug, edge_bug = train()
model_noedge, edge_noedge = train(use_grad_term=False)
for a, b in zip(model_bug.parameters(), model_noedge.parameters()):
    assert torch.equal(a, b)

# Returning the tensor lets the edge term train the network.
model_fix, edge_fix = train(as_float=False)
assert edge_fix < 0.8 * edge_bug, (edge_bug, edge_fix)
print("edge term as float: same weights as without it (edge err %.3f); as tensor: edge err %.3f"
      % (edge_bug, edge_fix))
