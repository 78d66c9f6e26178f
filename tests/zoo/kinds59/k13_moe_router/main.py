"""
expect: GL001 models/block.py:19
dynamic: confirm
source: none, invented

A soft mixture-of-experts regressor defined in models/block.py and trained by this script with
`net = MoEBlock(...); opt = Adam(net.parameters())`. The block's `route` method computes the
softmax gates from the router layer and returns `gates.detach()`; the gates are the router's only
path to the output, so the router gets no gradient and stays at its random initialisation, while
the experts (still attached) train. The asserts show `router.weight.grad is None` and unchanged
router weights after training; a subclass whose `route` keeps the gates attached trains the
router too: its weights receive a gradient and move.
"""
import torch
import torch.nn.functional as F

from models import MoEBlock

torch.manual_seed(0)
torch.set_num_threads(1)


def piecewise(n=256):
    x = torch.rand(n, 2) * 4 - 2
    y = torch.where(x[:, :1] > 0, torch.sin(3 * x[:, 1:]), x[:, 1:] ** 2 - 1)
    return x, y


class JointRouterMoE(MoEBlock):
    def route(self, x):
        return F.softmax(self.router(x), dim=-1)


def fit(net, steps=300):
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for _ in range(steps):
        x, y = piecewise()
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    net = MoEBlock(2, 1)
    r0 = net.router.weight.detach().clone()
    e0 = net.experts[0][0].weight.detach().clone()
    fit(net)
    assert net.router.weight.grad is None
    assert torch.equal(net.router.weight, r0)
    assert (net.experts[0][0].weight - e0).abs().max().item() > 1e-3

    torch.manual_seed(0)
    net2 = JointRouterMoE(2, 1)
    r0 = net2.router.weight.detach().clone()
    fit(net2)
    assert net2.router.weight.grad is not None
    assert (net2.router.weight - r0).abs().max().item() > 1e-3
    print("k13_moe_router: all checks passed")
