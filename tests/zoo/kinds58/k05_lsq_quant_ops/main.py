"""
expect: none
dynamic: dismiss
source: none, invented

Quantization-aware training of a small classifier with two hand-written autograd Functions from
quant_ops.py. LSQFakeQuant clones x/step and clamps/rounds the clone in place before it calls
save_for_backward, so both saved tensors hold the values backward expects. CappedReLU does edit a
tensor in place after save_for_backward, but what it saved is a freshly computed boolean mask, not
the edited output. Neither edit touches a saved tensor. The asserts compare both Functions'
gradients with plain-autograd references (straight-through clamp/round, torch.clamp), check that
the learned step sizes and the weights receive non-zero gradients, and that the accuracy rises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from quant_ops import CappedReLU, LSQFakeQuant


class QLinear(nn.Linear):
    def __init__(self, fan_in, fan_out, bits=4):
        super().__init__(fan_in, fan_out)
        self.qmax = 2 ** (bits - 1) - 1
        self.w_step = nn.Parameter(torch.tensor([2 * self.weight.abs().mean().item() / self.qmax ** 0.5]))

    def forward(self, x):
        w_q = LSQFakeQuant.apply(self.weight, self.w_step, -self.qmax - 1, self.qmax)
        return F.linear(x, w_q, self.bias)


class QuantNet(nn.Module):
    def __init__(self, dim=16, hidden=64, classes=4, cap=6.0):
        super().__init__()
        self.fc1 = QLinear(dim, hidden)
        self.fc2 = QLinear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)
        self.cap = cap

    def forward(self, x):
        x = CappedReLU.apply(self.fc1(x), self.cap)
        x = CappedReLU.apply(self.fc2(x), self.cap)
        return self.head(x)


def reference_quant(x, step, qmin, qmax):
    v = torch.clamp(x / step, qmin, qmax)
    return (v + (v.round() - v).detach()) * step


def check_ops():
    x = (torch.randn(40, dtype=torch.double) * 3).requires_grad_()
    step = torch.tensor([0.37], dtype=torch.double, requires_grad=True)
    gx, gs = torch.autograd.grad((LSQFakeQuant.apply(x, step, -8, 7) ** 2).sum(), (x, step))
    rx, rs = torch.autograd.grad((reference_quant(x, step, -8, 7) ** 2).sum(), (x, step))
    assert torch.allclose(gx, rx) and torch.allclose(gs, rs)

    y = (torch.randn(50, dtype=torch.double) * 4).requires_grad_()
    w = torch.randn(50, dtype=torch.double)
    g1, = torch.autograd.grad((CappedReLU.apply(y, 3.0) * w).sum(), y)
    g2, = torch.autograd.grad((torch.clamp(y, 0, 3.0) * w).sum(), y)
    assert torch.allclose(g1, g2)
    assert torch.autograd.gradcheck(lambda t: CappedReLU.apply(t, 3.0), (y,))


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    check_ops()

    centers = torch.randn(4, 16) * 2
    labels = torch.randint(0, 4, (512,))
    data = centers[labels] + torch.randn(512, 16)

    net = QuantNet()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    steps0 = [net.fc1.w_step.item(), net.fc2.w_step.item()]
    with torch.no_grad():
        acc0 = (net(data).argmax(-1) == labels).float().mean().item()
    for epoch in range(30):
        loss = F.cross_entropy(net(data), labels)
        opt.zero_grad()
        loss.backward()
        assert net.fc1.w_step.grad.abs().item() > 0
        assert net.fc1.weight.grad.abs().sum() > 0
        opt.step()
    with torch.no_grad():
        acc = (net(data).argmax(-1) == labels).float().mean().item()
    assert acc > max(acc0, 0.8), (acc0, acc)
    assert [net.fc1.w_step.item(), net.fc2.w_step.item()] != steps0
    print("lsq quant ops: ok, acc %.3f -> %.3f" % (acc0, acc))


if __name__ == "__main__":
    main()
