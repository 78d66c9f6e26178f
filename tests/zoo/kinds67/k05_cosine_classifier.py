"""
expect: GL001 33
dynamic: confirm
source: none, invented

A cosine-softmax classifier for few-shot / face-embedding style training. The author
wants unit-norm class prototypes, so the head's `_renorm_prototypes` method, called at
the start of every forward, replaces `self.fc.weight` with a fresh `nn.Parameter` built
from the normalised current weights. The optimizer was created before the first forward
and still holds the original weight tensor, which is no longer used by the graph, so it
never gets a gradient; the new parameter gets gradients but no optimizer ever steps it,
and the next forward replaces it again. The prototypes therefore never move away from the
normalised initial values. The asserts show the optimizer's copy has `.grad is None`, and
the module's weight after training equals the normalised initial weights; the variant that
normalises inside the computation (`F.linear(x, F.normalize(w))`) trains the prototypes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CosineHead(nn.Module):
    def __init__(self, dim, n_classes, scale=10.0, functional_norm=False):
        super().__init__()
        self.fc = nn.Linear(dim, n_classes, bias=False)
        self.scale = scale
        self.functional_norm = functional_norm

    def _renorm_prototypes(self):
        self.fc.weight = nn.Parameter(F.normalize(self.fc.weight, dim=1))

    def forward(self, x):
        x = F.normalize(x, dim=1)
        if self.functional_norm:
            return self.scale * F.linear(x, F.normalize(self.fc.weight, dim=1))
        self._renorm_prototypes()
        return self.scale * self.fc(x)


class EmbedNet(nn.Module):
    def __init__(self, functional_norm=False):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
        self.head = CosineHead(16, 6, functional_norm=functional_norm)

    def forward(self, x):
        return self.head(self.body(x))


def run(functional_norm):
    torch.manual_seed(0)
    net = EmbedNet(functional_norm=functional_norm)
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    original = net.head.fc.weight
    start = F.normalize(original.detach().clone(), dim=1)
    for _ in range(6):
        x = torch.randn(16, 32)
        y = torch.randint(0, 6, (16,))
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return net, original, start


net, original, start = run(functional_norm=False)
assert original.grad is None
assert net.head.fc.weight is not original
assert torch.allclose(net.head.fc.weight.detach(), start, atol=1e-6)
assert net.body[0].weight.grad is not None

net, original, start = run(functional_norm=True)
assert net.head.fc.weight is original
assert original.grad is not None
assert not torch.allclose(F.normalize(original.detach(), dim=1), start, atol=1e-4)
print("ok")
