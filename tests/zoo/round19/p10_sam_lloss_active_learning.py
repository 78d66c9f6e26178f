"""
expect: GL005 71
dynamic: confirm
source: https://github.com/kozistr/pytorch_optimizer/issues/64

The reporter plugs Sharpness-Aware Minimization into an active-learning loop (a backbone plus a
"learning loss" module, as in LL4AL). Instead of re-evaluating the loss in a closure after the
SAM ascent step, the code computes the loss once, calls loss.backward(retain_graph=True), then
`first_step()` (which shifts the weights in place to w + e(w)), then backward again through the
same graph, and PyTorch fails with "one of the variables needed for gradient computation has
been modified by an inplace operation". This program rebuilds the two-step SAM optimizer and
the backbone + loss-prediction module; the second backward through the stale graph raises that
error (caught and asserted), and the correct two-pass version (new forward after first_step)
trains both modules.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer_cls, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer_cls(self.param_groups, **kwargs)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups for p in g["params"]
                                       if p.grad is not None]))
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)
                self.state[p]["e_w"] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if "e_w" in self.state[p]:
                    p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


backbone = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
classifier = nn.Linear(64, 5)
loss_module = nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 1))
params = [*backbone.parameters(), *classifier.parameters(), *loss_module.parameters()]
optimizer = SAM(params, torch.optim.SGD, lr=0.05, momentum=0.9)
x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))


def lloss_objective():
    feat = backbone(x)
    target_loss = F.cross_entropy(classifier(feat), y, reduction="none")
    pred_loss = loss_module(feat.detach()).squeeze(1)
    return target_loss.mean() + F.mse_loss(pred_loss, target_loss.detach())


loss = lloss_objective()
loss.backward(retain_graph=True)
optimizer.first_step(zero_grad=True)
try:
    loss.backward()
    raise AssertionError("second backward through the stale graph should fail")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e)
optimizer.second_step(zero_grad=True)

w0 = backbone[0].weight.detach().clone()
l0 = lloss_objective().item()
for _ in range(20):
    lloss_objective().backward()
    optimizer.first_step(zero_grad=True)
    lloss_objective().backward()
    optimizer.second_step(zero_grad=True)
assert not torch.equal(backbone[0].weight, w0)
assert lloss_objective().item() < l0
print("p10 ok: SAM's first_step between two backwards of one graph breaks the second one")
