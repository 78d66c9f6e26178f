"""
expect: none
dynamic: dismiss
source: https://github.com/DequanWang/tent/issues/23

TENT adapts a trained classifier at test time by minimising the entropy of its
own predictions, updating only the affine scale/shift of the BatchNorm layers.
The question in the issue is how the outputs can change when forward() just
returns what forward_and_adapt computed. The code looks like it could not train
at all: the caller evaluates inside torch.no_grad(), the whole model is frozen
with requires_grad_(False), and backward() is called from a helper. It is
correct: forward_and_adapt is decorated with @torch.enable_grad(), which turns
recording back on inside the caller's no_grad block, and configure_model
re-enables grad only on the BN affine parameters that the optimizer holds. The
returned logits belong to the pre-update forward (the update is used by the next
batch). The asserts show that inside the no_grad evaluation loop the BN weights
and biases do receive gradients and move, all other weights stay exactly as
trained, and the mean prediction entropy on a shifted stream goes down.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def softmax_entropy(x):
    return -(x.softmax(1) * x.log_softmax(1)).sum(1)


@torch.enable_grad()  # the caller may run us under no_grad
def forward_and_adapt(x, model, optimizer):
    outputs = model(x)
    loss = softmax_entropy(outputs).mean(0)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return outputs


class Tent(nn.Module):
    def __init__(self, model, optimizer, steps=1):
        super().__init__()
        self.model, self.optimizer, self.steps = model, optimizer, steps

    def forward(self, x):
        for _ in range(self.steps):
            outputs = forward_and_adapt(x, self.model, self.optimizer)
        return outputs


def configure_model(model):
    model.train()                 # use test-batch statistics
    model.requires_grad_(False)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.requires_grad_(True)
            m.track_running_stats = False
            m.running_mean, m.running_var = None, None
    return model


def collect_params(model):
    return [p for m in model.modules() if isinstance(m, nn.BatchNorm1d) for p in m.parameters()]


# a "source" classifier trained quickly on clean data
net = nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
w_true = torch.randn(8, 3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(200):
    x = torch.randn(64, 8)
    loss = nn.functional.cross_entropy(net(x), (x @ w_true).argmax(1))
    opt.zero_grad()
    loss.backward()
    opt.step()

model = configure_model(net)
params = collect_params(model)
tent = Tent(model, torch.optim.SGD(params, lr=0.05, momentum=0.9))
frozen_before = {n: p.detach().clone() for n, p in model.named_parameters() if not p.requires_grad}
bn_before = [p.detach().clone() for p in params]

shift = 1.5 * torch.randn(8)                     # covariate shift at test time
stream = [torch.randn(64, 8) * 1.7 + shift for _ in range(60)]

entropies = []
with torch.no_grad():                            # ordinary evaluation loop
    for x in stream:
        out = tent(x)
        entropies.append(softmax_entropy(out).mean().item())

assert all(not torch.equal(b, p.detach()) for b, p in zip(bn_before, params)), "BN affine params adapted"
for n, p in model.named_parameters():
    if n in frozen_before:
        assert torch.equal(frozen_before[n], p.detach()), n
first, last = sum(entropies[:10]) / 10, sum(entropies[-10:]) / 10
assert last < first, (first, last)
print("TENT under no_grad: mean entropy %.3f -> %.3f, only BN affine params changed" % (first, last))
