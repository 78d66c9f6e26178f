"""
expect: none
dynamic: dismiss
source: https://github.com/cilix-ai/on-the-fly-guidance/issues/12

Medical image registration (TransMorph-style unsupervised training, the setup used in the
on-the-fly-guidance repo): a network predicts a dense displacement field, a spatial transformer
warps the moving volume, and the loss is NCC(warped, fixed) plus a Grad3d smoothness penalty on the
field. Grad3d ends with `reg *= self.loss_mult`, an in-place multiply on its own result, and the
training loop logs `loss.item()`. Both look like autograd hazards but are fine: the tensor scaled
in place is the output of a division by a Python constant, which saves nothing for backward, and
`.item()` only feeds a running average. The asserts show the in-place version gives exactly the
same gradients as an out-of-place reference, every parameter gets a gradient, and a short training
run raises the similarity between warped and fixed volumes.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch

from losses import NCC, Grad3d, TinyRegNet

torch.manual_seed(0)
torch.set_num_threads(1)

SIZE = (12, 12, 12)


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def make_pair():
    d, h, w = SIZE
    zz, yy, xx = torch.meshgrid(torch.arange(d), torch.arange(h), torch.arange(w), indexing="ij")
    zz, yy, xx = zz.float(), yy.float(), xx.float()

    def blob(cz, cy, cx):
        return torch.exp(-((zz - cz) ** 2 + (yy - cy) ** 2 + (xx - cx) ** 2) / 8.0)

    shift = torch.randint(-2, 3, (3,)).float()
    fixed = blob(6.0, 6.0, 6.0) + 0.5 * blob(3.0, 8.0, 4.0)
    moving = blob(6.0 + shift[0], 6.0 + shift[1], 6.0 + shift[2]) + 0.5 * blob(3.0 + shift[0], 8.0 + shift[1], 4.0 + shift[2])
    return moving[None, None], fixed[None, None]


def reference_grad3d(flow, loss_mult):
    d_d = (flow[:, :, 1:] - flow[:, :, :-1]) ** 2
    d_h = (flow[:, :, :, 1:] - flow[:, :, :, :-1]) ** 2
    d_w = (flow[:, :, :, :, 1:] - flow[:, :, :, :, :-1]) ** 2
    return (d_d.mean() + d_h.mean() + d_w.mean()) / 3.0 * loss_mult


def main():
    model = TinyRegNet(SIZE)
    criterion_ncc = NCC()
    criterion_reg = Grad3d(penalty="l2", loss_mult=0.02)

    # 1) the in-place scaled regulariser gives the same gradient as an out-of-place one
    flow = torch.randn(1, 3, *SIZE, requires_grad=True)
    g_inplace, = torch.autograd.grad(criterion_reg(flow, None), flow)
    g_ref, = torch.autograd.grad(reference_grad3d(flow, 0.02), flow)
    assert torch.allclose(g_inplace, g_ref, atol=1e-7), "in-place loss_mult changed the gradient"

    # 2) train the registration net as the repo's train.py does
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    pairs = [make_pair() for _ in range(4)]

    def mean_ncc():
        with torch.no_grad():
            return sum(-criterion_ncc(model(m, f)[0], f).item() for m, f in pairs) / len(pairs)

    ncc_before = mean_ncc()
    first_grads_checked = False
    for epoch in range(25):
        loss_all = AverageMeter()
        for moving, fixed in pairs:
            output = model(moving, fixed)
            loss_ncc = criterion_ncc(output[0], fixed)
            loss_reg = criterion_reg(output[1], fixed)
            loss = loss_ncc + loss_reg
            loss_all.update(loss.item(), fixed.numel())
            optimizer.zero_grad()
            loss.backward()
            if not first_grads_checked:
                for name, p in model.named_parameters():
                    assert p.grad is not None, name
                    assert p.grad.abs().sum() > 0, name
                first_grads_checked = True
            optimizer.step()
    ncc_after = mean_ncc()
    print(f"NCC before {ncc_before:.4f}  after {ncc_after:.4f}  last epoch loss {loss_all.avg:.4f}")
    assert ncc_after > ncc_before + 0.02, (ncc_before, ncc_after)
    print("ok: in-place loss_mult is harmless, registration net trains")


if __name__ == "__main__":
    main()
