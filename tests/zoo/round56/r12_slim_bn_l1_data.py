"""
expect: GL001 40
dynamic: confirm
source: https://github.com/microsoft/nni/pull/4307

Network slimming trains with an extra L1 penalty on the BatchNorm scale
factors (gamma) so that unimportant channels shrink towards zero and can be
pruned. NNI's SlimPruner (compression v2) patched the user's criterion and
built the penalty as `sum_l1 += torch.norm(wrapper.module.weight.data, p=1)`.
`.data` hands back the gamma values without their autograd record, so the
penalty is a plain number added to the loss: the printed loss grows, but
backward produces exactly the same gradient as without the penalty and no
gamma is pushed towards zero. The PR drops `.data`. The program patches a
cross-entropy criterion the same way. The asserts show that in the `.data`
version the BN gradients equal those of the plain loss and the penalty never
shrinks the gammas, while the fixed version adds lambda*sign(gamma) to the
gradient and drives the L1 mass of the gammas down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))


def slim_patch(criterion, bn_layers, lam, use_data):
    def patched(output, target):
        sum_l1 = 0
        for bn in bn_layers:
            if use_data:
                sum_l1 += torch.norm(bn.weight.data, p=1)
            else:
                sum_l1 += torch.norm(bn.weight, p=1)
        return criterion(output, target) + lam * sum_l1
    return patched


x = torch.randn(32, 3, 8, 8)
y = torch.randint(0, 4, (32,))
LAM = 0.05


def bn_grads(model, loss_fn):
    model.zero_grad()
    loss_fn(model(x), y).backward()
    return [m.weight.grad.clone() for m in model if isinstance(m, nn.BatchNorm2d)]


def run(use_data, steps=60):
    model = make_model()
    bns = [m for m in model if isinstance(m, nn.BatchNorm2d)]
    plain = bn_grads(model, F.cross_entropy)
    slim = bn_grads(model, slim_patch(F.cross_entropy, bns, LAM, use_data))
    # pure sparsity pressure: train on the penalty side only (task lr = 0)
    opt = torch.optim.SGD([b.weight for b in bns], lr=0.5)
    crit = slim_patch(lambda o, t: 0.0 * o.sum(), bns, LAM, use_data)
    l1_before = sum(b.weight.abs().sum().item() for b in bns)
    for _ in range(steps):
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
    l1_after = sum(b.weight.abs().sum().item() for b in bns)
    return bns, plain, slim, l1_before, l1_after


# NNI before the fix: the penalty adds a constant, gradients are unchanged.
bns, plain, slim, l1_before, l1_after = run(use_data=True)
for gp, gs in zip(plain, slim):
    assert torch.equal(gp, gs)
assert abs(l1_after - l1_before) < 1e-6, (l1_before, l1_after)

# After the fix: the penalty contributes lambda * sign(gamma).
bns, plain, slim, l1_before, l1_after = run(use_data=False)
make_signs = [torch.sign(w) for w in
              [m.weight for m in make_model() if isinstance(m, nn.BatchNorm2d)]]
for gp, gs, s in zip(plain, slim, make_signs):
    assert torch.allclose(gs - gp, LAM * s, atol=1e-6)
assert l1_after < 0.5 * l1_before, (l1_before, l1_after)
print("L1 on gamma.data: no gradient; fixed penalty shrinks gamma L1 %.2f -> %.2f"
      % (l1_before, l1_after))
