"""
expect: GL003 50
dynamic: confirm
source: https://github.com/BindsNET/bindsnet/issues/346

The question: spikes from a LIF layer are counted with `(spikes == 1).sum()` and
compared with image pixels to form a loss for gradient descent, with the weights set
to requires_grad=True. A hard threshold and a comparison leave the count with no
history, so backward errors and the quick fix is to switch requires_grad on for the
loss. Here the loss object does exactly that. Training then runs, but the
weights never get a gradient; the asserts show that, and that a sigmoid surrogate
count trains the same weights.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RateLayer(nn.Module):
    def __init__(self, n_in=16, n_out=16, steps=8, surrogate=False):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.steps = steps
        self.surrogate = surrogate

    def forward(self, x):
        v = torch.zeros(x.size(0), self.fc.out_features)
        spikes = []
        for _ in range(self.steps):
            v = 0.7 * v + self.fc(x)
            if self.surrogate:
                s = torch.sigmoid(5.0 * (v - 1.0))
            else:
                s = (v > 1.0).float()
            v = v * (1.0 - s)
            spikes.append(s)
        return torch.stack(spikes)


class FiringRateLoss:
    def __call__(self, spikes, target_rate, surrogate):
        if surrogate:
            counts = spikes.sum(0)
        else:
            counts = (spikes == 1).sum(0).float()
        loss = ((counts / spikes.size(0) - target_rate) ** 2).mean()
        if not loss.requires_grad:
            loss.requires_grad_(True)
        return loss


def train(surrogate, steps=10):
    torch.manual_seed(1)
    layer = RateLayer(surrogate=surrogate)
    opt = torch.optim.SGD(layer.parameters(), lr=0.5)
    crit = FiringRateLoss()
    w0 = layer.fc.weight.detach().clone()
    x = torch.rand(4, 16)
    target = torch.rand(4, 16)
    grads = []
    for _ in range(steps):
        loss = crit(layer(x), target, surrogate)
        opt.zero_grad()
        loss.backward()
        grads.append(layer.fc.weight.grad)
        opt.step()
    return layer, w0, grads


layer, w0, grads = train(surrogate=False)
assert all(g is None for g in grads)
assert torch.equal(layer.fc.weight, w0)

layer_s, w0_s, grads_s = train(surrogate=True)
assert all(g is not None and g.abs().sum() > 0 for g in grads_s)
assert not torch.equal(layer_s.fc.weight, w0_s)
print("ok")
