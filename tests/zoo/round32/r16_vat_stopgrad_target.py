"""
expect: none
dynamic: dismiss

From a virtual-adversarial-training repo issue asking whether the clean
prediction and the adversarial direction should be detached. They should: VAT
treats the clean prediction as a fixed target and the perturbation r_adv as a
constant. The detaches below are on purpose; the model still trains through
model(x + r_adv). The asserts show the classifier weights get a gradient
from the VAT term alone and that the smoothness loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VATLoss:
    def __init__(self, xi=1e-1, eps=1.0):
        self.xi, self.eps = xi, eps

    def __call__(self, model, x):
        with torch.no_grad():
            target = F.softmax(model(x), dim=1)
        d = torch.randn_like(x)
        d = (self.xi * F.normalize(d, dim=1)).requires_grad_()
        adv_dist = F.kl_div(F.log_softmax(model(x + d), 1), target, reduction="batchmean")
        grad = torch.autograd.grad(adv_dist, d)[0]
        r_adv = self.eps * F.normalize(grad.detach(), dim=1)
        return F.kl_div(F.log_softmax(model(x + r_adv), 1), target, reduction="batchmean")


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(128, 10)
vat = VATLoss()
losses = []
for _ in range(30):
    torch.manual_seed(1)
    loss = vat(model, x)
    opt.zero_grad()
    loss.backward()
    assert model[0].weight.grad is not None and model[0].weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], (losses[0], losses[-1])
print("ok", losses[0], losses[-1])
