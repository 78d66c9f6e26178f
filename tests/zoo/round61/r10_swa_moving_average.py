"""
expect: none
dynamic: dismiss
source: https://github.com/timgaripov/swa/issues/3

Stochastic Weight Averaging (reference implementation of the SWA paper): after
swa_start, every epoch the training loop calls
moving_average(swa_model, model, 1 / (swa_n + 1)), which rewrites the averaged
network in place through .data (param1.data *= 1 - alpha;
param1.data += param2.data * alpha), then recomputes the BatchNorm statistics
of the averaged network with bn_update. The issue asked whether this update
is right; the maintainers showed it is the running mean (n*avg + w)/(n+1).
From an autograd point of view it is also harmless: the averaged network is
never part of a loss or an optimiser, the .data writes happen after
optimizer.step() when no graph is alive, and the trained model is only read.
The asserts train a small BatchNorm classifier with SGD, check that the SWA
weights equal the exact mean of the per-epoch snapshots, that the trained
model keeps learning (its loss falls) and that no SWA parameter ever holds a
gradient, and that the averaged model with refreshed BatchNorm statistics
classifies the data well.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net():
    return nn.Sequential(nn.Linear(4, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))


def moving_average(net1, net2, alpha=1):
    for param1, param2 in zip(net1.parameters(), net2.parameters()):
        param1.data *= (1.0 - alpha)
        param1.data += param2.data * alpha


def _reset_bn(module):
    if isinstance(module, nn.modules.batchnorm._BatchNorm):
        module.running_mean = torch.zeros_like(module.running_mean)
        module.running_var = torch.ones_like(module.running_var)


def bn_update(loader, model):
    model.train()
    momenta = {}
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            _reset_bn(m)
            momenta[m] = m.momentum
    n = 0
    for x, _ in loader:
        b = x.size(0)
        for m in momenta:
            m.momentum = b / (n + b)
        model(x)
        n += b
    for m, mom in momenta.items():
        m.momentum = mom


centers = torch.randn(3, 4) * 3
labels = torch.randint(0, 3, (600,))
data = centers[labels] + torch.randn(600, 4)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, labels), batch_size=50, shuffle=True)

model, swa_model = make_net(), make_net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
criterion = nn.CrossEntropyLoss()
swa_start, swa_n, snapshots, epoch_losses = 4, 0, [], []
for epoch in range(10):
    model.train()
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    epoch_losses.append(total)
    if epoch + 1 >= swa_start:
        moving_average(swa_model, model, 1.0 / (swa_n + 1))
        swa_n += 1
        snapshots.append([p.detach().clone() for p in model.parameters()])
        bn_update(loader, swa_model)

mean_weights = [torch.stack(ps).mean(0) for ps in zip(*snapshots)]
assert all(torch.allclose(a, p, atol=1e-5) for a, p in zip(mean_weights, swa_model.parameters()))
assert epoch_losses[-1] < epoch_losses[0]
assert all(p.grad is None for p in swa_model.parameters())
swa_model.eval()
with torch.no_grad():
    acc = (swa_model(data).argmax(1) == labels).float().mean().item()
assert acc > 0.9
print(f"r10 ok: in-place .data running average equals the snapshot mean; SWA accuracy {acc:.2f}")
