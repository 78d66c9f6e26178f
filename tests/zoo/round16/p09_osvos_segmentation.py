"""
expect: none
dynamic: dismiss
source: https://github.com/kmaninis/OSVOS-PyTorch/issues/22

A user was confused by inputs.requires_grad_() in the OSVOS training loop; the maintainer said it
was left over from the Variable-to-0.4 port and does not change the network's behaviour. This
program rebuilds a small segmentation training loop that switches requires_grad on for each input
batch (fresh data tensors that were never part of any graph). The switch only makes autograd also
compute a gradient for the image; the asserts show every network parameter still gets a gradient,
the weights move, the loss falls, and the run matches the same loop without the switch exactly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))


def train(osvos_style):
    net = make_net()
    opt = torch.optim.SGD(net.parameters(), lr=0.3, momentum=0.9)
    gen = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(40):
        inputs = torch.randn(4, 3, 8, 8, generator=gen)
        gts = (inputs.mean(1, keepdim=True) > 0).float()
        if osvos_style:
            inputs.requires_grad_()
        outputs = net(inputs)
        loss = F.binary_cross_entropy_with_logits(outputs, gts)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
        opt.step()
        losses.append(loss.item())
    return net, losses


net_a, losses_a = train(True)
net_b, losses_b = train(False)
assert losses_a[-1] < 0.8 * losses_a[0], losses_a
assert all(torch.allclose(a, b) for a, b in zip(net_a.parameters(), net_b.parameters()))
print("ok: requires_grad_ on fresh inputs is harmless; loss %.3f -> %.3f" % (losses_a[0], losses_a[-1]))
