"""
expect: GL002 55
dynamic: confirm
source: https://github.com/poppinace/indexnet_matting/issues/10

The reporter was re-implementing an image-matting network (IndexNet / Deep Image
Matting style). The network returns an alpha matte as a tensor, but the extra
matting loss they wanted (the connectivity / gradient-error measure used for
evaluation) was written with NumPy. So they converted the prediction to a NumPy
array, computed the loss there and turned the number back into a tensor with
requires_grad=True so that backward() would not complain, and then observed that
the "connectivity loss can't work". The mechanism: once the matte goes through
.numpy() and is rebuilt with torch.tensor(...), the new tensor is a fresh leaf with
no history, so the extra term adds a constant to the total loss and sends no
gradient to the network. Here the NumPy term is an image-gradient error of the
matte; the asserts show that the parameter gradients of alpha_loss + numpy_term
are bit-identical to those of alpha_loss alone (and that the rebuilt term is a
leaf), while the same term written with torch ops changes the gradients and,
trained alone, reduces the gradient error.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyMattingNet(nn.Module):
    def __init__(self):
        super().__init__()
        # input: RGB image + trimap -> 4 channels
        self.enc = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.dec = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, img, trimap):
        h = self.enc(torch.cat([img, trimap], dim=1))
        return torch.sigmoid(self.dec(h))


def alpha_l1_loss(pred, gt, trimap):
    unknown = (trimap > 0.25) & (trimap < 0.75)
    w = unknown.float()
    return (torch.abs(pred - gt) * w).sum() / (w.sum() + 1.0)


def gradient_error_numpy(pred, gt):
    p = pred.detach().cpu().numpy()[:, 0]
    g = gt.cpu().numpy()[:, 0]
    py, px = np.gradient(p, axis=(1, 2))
    gy, gx = np.gradient(g, axis=(1, 2))
    err = np.abs(np.sqrt(px ** 2 + py ** 2) - np.sqrt(gx ** 2 + gy ** 2)).mean()
    return torch.tensor(err, dtype=torch.float32, requires_grad=True)


def gradient_error_torch(pred, gt):
    py, px = torch.gradient(pred[:, 0], dim=(1, 2))
    gy, gx = torch.gradient(gt[:, 0], dim=(1, 2))
    mag_p = torch.sqrt(px ** 2 + py ** 2 + 1e-12)
    mag_g = torch.sqrt(gx ** 2 + gy ** 2 + 1e-12)
    return torch.abs(mag_p - mag_g).mean()


def make_batch(n=4, size=16):
    img = torch.rand(n, 3, size, size)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    gt = torch.sigmoid((xx.float() - size / 2 + 3 * torch.randn(n, 1, 1)) / 1.5)
    gt = gt.unsqueeze(1)
    trimap = torch.full_like(gt, 0.5)
    trimap[gt < 0.05] = 0.0
    trimap[gt > 0.95] = 1.0
    return img, trimap, gt


def param_grads(model):
    return [p.grad.detach().clone() for p in model.parameters()]


img, trimap, gt = make_batch()

# --- the report: alpha loss + NumPy-side matting loss ---------------------
net = TinyMattingNet()
pred = net(img, trimap)
extra = gradient_error_numpy(pred, gt)
assert extra.is_leaf and extra.grad_fn is None
net.zero_grad()
(alpha_l1_loss(pred, gt, trimap) + 5.0 * extra).backward()
g_with_numpy_term = param_grads(net)

net.zero_grad()
pred = net(img, trimap)
alpha_l1_loss(pred, gt, trimap).backward()
g_alpha_only = param_grads(net)
assert all(torch.equal(a, b) for a, b in zip(g_with_numpy_term, g_alpha_only)), \
    "the NumPy term should add nothing to the gradients"

# --- fixed variant: the same measure with torch ops -----------------------
net.zero_grad()
pred = net(img, trimap)
(alpha_l1_loss(pred, gt, trimap) + 5.0 * gradient_error_torch(pred, gt)).backward()
g_with_torch_term = param_grads(net)
diff = sum((a - b).abs().sum().item() for a, b in zip(g_with_torch_term, g_alpha_only))
assert diff > 1e-6, diff

# trained on the gradient error alone, only the torch version moves the net
for use_torch in (False, True):
    torch.manual_seed(1)
    model = TinyMattingNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = [p.detach().clone() for p in model.parameters()]
    with torch.no_grad():
        start = gradient_error_torch(model(img, trimap), gt).item()
    for _ in range(60):
        p_ = model(img, trimap)
        loss = gradient_error_torch(p_, gt) if use_torch else gradient_error_numpy(p_, gt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        end = gradient_error_torch(model(img, trimap), gt).item()
    moved = any(not torch.equal(a, b.detach()) for a, b in zip(w0, model.parameters()))
    if use_torch:
        assert moved and end < start, (start, end)
    else:
        assert not moved and abs(end - start) < 1e-7, (start, end)

print("r11 ok: NumPy-rebuilt matting loss sends no gradient; torch version trains")
