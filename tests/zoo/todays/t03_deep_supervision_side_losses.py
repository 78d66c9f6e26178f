"""expect: GL002 31
dynamic: confirm
source: https://discuss.pytorch.org/t/how-to-learn-the-weights-between-two-losses/39681

A stack of blocks, each with a small side classifier, returns one auxiliary loss per
block. The module gathers those per-layer losses into a tensor with torch.Tensor(...)
before weighting them, which copies the numbers and cuts every side classifier out of
the graph. The main head's cross-entropy still flows back, so training looks normal,
yet the side classifiers never receive a gradient.
"""
import torch
from torch import nn
import torch.nn.functional as F


class SideSupervisedNet(nn.Module):
    def __init__(self, width=12, depth=3, classes=4):
        super().__init__()
        self.stem = nn.Linear(6, width)
        self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.side_heads = nn.ModuleList([nn.Linear(width, classes) for _ in range(depth)])
        self.final = nn.Linear(width, classes)

    def forward(self, x, y):
        h = torch.relu(self.stem(x))
        side_terms = []
        for block, side in zip(self.blocks, self.side_heads):
            h = torch.relu(block(h))
            side_terms.append(F.cross_entropy(side(h), y))
        main = F.cross_entropy(self.final(h), y)
        per_layer = torch.Tensor(side_terms)
        ramp = torch.linspace(0.2, 0.6, len(side_terms))
        return main + (ramp * per_layer).sum()


torch.manual_seed(0)
net = SideSupervisedNet()
sgd = torch.optim.SGD(net.parameters(), lr=0.1)
xb, yb = torch.randn(16, 6), torch.randint(0, 4, (16,))
snapshot = [h.weight.detach().clone() for h in net.side_heads]

for _ in range(4):
    sgd.zero_grad()
    total = net(xb, yb)
    total.backward()
    sgd.step()

print("total loss", total.item())
assert net.final.weight.grad is not None and net.blocks[0].weight.grad is not None
for head, old in zip(net.side_heads, snapshot):
    assert head.weight.grad is None, "side head got a gradient"
    assert torch.equal(head.weight, old)
print("side heads never trained")
