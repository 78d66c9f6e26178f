"""
expect: GL005 pruned_resnet.py:33
dynamic: confirm
source: https://github.com/Emily0219/AAL-pruning/commit/5f0cedf9eab87b2e32568be0956cd66ef8f8cac1

A channel-pruning repository rebuilt its ResNet blocks so that the second conv
only outputs the surviving channels; the pruned channels come back into the
residual sum as a constant BN shift. The block did `residual = x`, then
`residual += self.bn_value` and `residual.index_add_(...)`. Because `residual`
is just another name for the block input `x`, the `+=` rewrites a tensor that
the block's own first conv (and the ReLU that produced it) saved for backward,
so the first backward pass fails with "modified by an inplace operation"; the
linked commit replaces the `+=` with an out-of-place add. This program builds
the same kind of pruned block in pruned_resnet.py. The asserts catch the
RuntimeError in the in-place version, and show that the out-of-place version
trains: the loss goes down and the first conv's weights change.
"""
import torch
import torch.nn.functional as F

from pruned_resnet import TinyPrunedResNet

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(16, 3, 8, 8)
y = torch.randint(0, 3, (16,))


def train(inplace_shortcut, steps=40):
    torch.manual_seed(0)
    model = TinyPrunedResNet(inplace_shortcut=inplace_shortcut)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    w0 = model.block1.conv1.weight.detach().clone()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x.clone()), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, w0, losses


# Pruned block as in the repository before the fix: the first backward fails.
try:
    train(inplace_shortcut=True, steps=1)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

# Out-of-place shortcut: trains normally.
model, w0, losses = train(inplace_shortcut=False)
assert losses[-1] < 0.5 * losses[0], losses
assert not torch.allclose(model.block1.conv1.weight, w0)
print("in-place shortcut breaks backward as reported; out-of-place block trains: loss %.3f -> %.3f"
      % (losses[0], losses[-1]))
