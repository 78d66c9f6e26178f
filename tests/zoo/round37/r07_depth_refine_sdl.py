"""
expect: GL001 54
dynamic: confirm
source: https://github.com/Brummi/MonoRec/issues/27

A MonoRec user noticed that the depth refinement loss detaches the sparse depth loss
before averaging it, which cuts backpropagation; the author agreed it differs from
the paper and suspected a refactoring mistake. Here a small depth head predicts
inverse depth at two scales and is trained with a masked sparse L1 term plus an
edge-aware smoothness term; the sparse term is averaged from a detached map, so
only smoothness trains the net. The asserts show the sparse-term weight has no
effect on the gradient, while in the fixed variant it does.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DepthHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.out0 = nn.Conv2d(8, 1, 1)
        self.out1 = nn.Conv2d(8, 1, 1)

    def forward(self, img):
        h = self.body(img)
        return [torch.sigmoid(self.out0(h)), torch.sigmoid(self.out1(F.avg_pool2d(h, 2)))]


def sparse_depth_loss(pred, gt):
    mask = (gt > 0).float()
    return (pred - gt).abs() * mask, mask


def mask_mean(t, m):
    return (t * m).sum() / (m.sum() + 1e-7)


def smoothness(pred, img):
    dx = (pred[..., :, 1:] - pred[..., :, :-1]).abs() * torch.exp(-(img[..., :, 1:] - img[..., :, :-1]).abs().mean(1, keepdim=True))
    return dx.mean()


def refinement_loss(preds, depth_gt, img, sdl_weight=1.0, fixed=False):
    loss = 0.0
    for pred in preds:
        if pred.shape[-1] != depth_gt.shape[-1]:
            pred = F.interpolate(pred, size=depth_gt.shape[-2:])
        err, valid = sparse_depth_loss(pred, depth_gt)
        sdl = mask_mean(err if fixed else err.detach(), valid)
        loss = loss + sdl_weight * sdl + 1e-3 * smoothness(pred, img)
    return loss


net = DepthHead()
img = torch.rand(2, 3, 16, 16)
depth_gt = torch.rand(2, 1, 16, 16) * (torch.rand(2, 1, 16, 16) > 0.7).float()

opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for _ in range(3):
    opt.zero_grad()
    refinement_loss(net(img), depth_gt, img).backward()
    opt.step()


def grad_vec(weight, fixed=False):
    net.zero_grad()
    refinement_loss(net(img), depth_gt, img, weight, fixed).backward()
    return torch.cat([p.grad.flatten() for p in net.parameters()])


assert torch.allclose(grad_vec(1.0), grad_vec(50.0)), "sparse depth term must not reach the net"
assert not torch.allclose(grad_vec(1.0, True), grad_vec(50.0, True))
print("ok: detached sparse depth loss trains nothing; only smoothness moves the net")
