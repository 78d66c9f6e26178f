"""
expect: GL005 trainer.py:28
dynamic: confirm
source: https://github.com/JerryYLi/bg-resample-ood/issues/1

Training the background-resampling variant of an out-of-distribution detector failed
with "one of the variables needed for gradient computation has been modified by an
inplace operation ... output 0 of TBackward". The loop backpropagated the classifier
loss with retain_graph=True, called optimizer.step() (editing the classifier weights in
place), and then backpropagated the adversarial resampling-weight loss through the same
graph. This program keeps the trainer module and the loop order. The asserts show the
second backward raises the in-place error, and doing both backward passes before either
step works and updates both the classifier and the resampling weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import train_epoch_resample, uniform_ce

torch.set_num_threads(1)


def make_data(n_batches=3, n=8, n_bg=64):
    loader = [(torch.randn(n, 10), torch.randint(0, 4, (n,))) for _ in range(n_batches)]
    bg = [(torch.randint(0, n_bg, (n,)), torch.randn(n, 10)) for _ in range(n_batches)]
    return loader, bg


def fixed_epoch(loader, bg_loader, weight_params, model, optimizer, optimizer_w):
    for (inputs, targets), (indices, bg_inputs) in zip(loader, bg_loader):
        n = inputs.size(0)
        w = F.softplus(weight_params)
        weights = ((w ** 0.5).mean() / (w.mean() ** 0.5)) * (w[indices] / w.mean()) ** 0.5
        outputs = model(torch.cat([inputs, bg_inputs]))
        loss_ood = uniform_ce(outputs[n:], weights)
        loss = F.cross_entropy(outputs[:n], targets) + loss_ood
        optimizer.zero_grad(); optimizer_w.zero_grad()
        loss.backward(retain_graph=True, inputs=list(model.parameters()))
        (-loss_ood).backward(inputs=[weight_params])
        optimizer.step(); optimizer_w.step()


def setup():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4))
    weight_params = nn.Parameter(torch.zeros(64))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    opt_w = torch.optim.SGD([weight_params], lr=0.1)
    return model, weight_params, opt, opt_w


model, weight_params, opt, opt_w = setup()
try:
    train_epoch_resample(*make_data(), weight_params, model, opt, opt_w)
    raise AssertionError("second backward after optimizer.step() should fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

model, weight_params, opt, opt_w = setup()
w0, p0 = weight_params.detach().clone(), model[0].weight.detach().clone()
fixed_epoch(*make_data(), weight_params, model, opt, opt_w)
assert not torch.equal(w0, weight_params) and not torch.equal(p0, model[0].weight)
print("p11 ok: optimizer.step() between two backward passes through one graph")
