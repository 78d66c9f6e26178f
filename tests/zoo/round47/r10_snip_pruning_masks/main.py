"""
expect: none
dynamic: dismiss
source: https://github.com/mil-ad/snip/issues/4

Single-shot pruning with SNIP before training. The SNIP helper deep-copies the network,
adds an all-ones `weight_mask` parameter to every Linear layer, switches the copied
weights to `requires_grad = False` and scores each connection by |dL/dmask| from one
batch. The issue reporter read `layer.weight.requires_grad = False` as freezing the real
model; the maintainer's answer is that it only touches the throw-away copy, where the
gradient is wanted for the masks, not the weights. Training then zeroes the pruned
weights through `.data` before any forward pass and masks their gradients with hooks.
The asserts check that the real model's weights still require grad and are unchanged by
scoring, that every mask got a non-zero score, and that after training the pruned
weights are still exactly zero while the kept ones moved and the loss fell.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from snip import SNIP


class LeNet300(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(20, 64), nn.Linear(64, 32), nn.Linear(32, 4)

    def forward(self, x):
        return F.log_softmax(self.fc3(F.relu(self.fc2(F.relu(self.fc1(x))))), dim=1)


def apply_prune_mask(net, keep_masks):
    layers = [m for m in net.modules() if isinstance(m, nn.Linear)]
    for layer, keep_mask in zip(layers, keep_masks):
        layer.weight.data[keep_mask == 0.0] = 0.0
        layer.weight.register_hook(lambda grad, m=keep_mask: grad * m)


torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(128, 20)
y = (x[:, :4] * torch.tensor([1.0, -1.0, 0.5, 2.0])).argmax(1)

net = LeNet300()
w0 = net.fc1.weight.detach().clone()
keep_masks = SNIP(net, keep_ratio=0.2, inputs=x[:32], targets=y[:32])
assert all(p.requires_grad for p in net.parameters())
assert torch.equal(w0, net.fc1.weight)
assert all(m.sum() > 0 for m in keep_masks)

apply_prune_mask(net, keep_masks)
w_kept = net.fc1.weight.detach().clone()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
losses = []
for step in range(150):
    optimizer.zero_grad()
    loss = F.nll_loss(net(x), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
for layer, m in zip([net.fc1, net.fc2, net.fc3], keep_masks):
    assert torch.all(layer.weight[m == 0] == 0)
assert not torch.equal(w_kept[keep_masks[0] == 1], net.fc1.weight[keep_masks[0] == 1])
assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
print("kept fraction:", round(float(torch.cat([m.flatten() for m in keep_masks]).mean()), 3),
      "| loss:", round(losses[0], 3), "->", round(losses[-1], 3))
