"""expect: none
dynamic: dismiss
source: https://github.com/NVlabs/FUNIT/blob/master/trainer.py

A GAN trainer laid out like FUNIT's: the generator step adds an adversarial hinge term and a reconstruction term,
then keeps an exponential moving average copy of the generator (gen_test) with update_average, which rewrites the
copy's parameters in place (copy_) under torch.no_grad(). The discriminator step marks the real batch with
requires_grad_() so it can take an R1 gradient penalty, calls backward(retain_graph=True) on the real-image loss
because the penalty differentiates through the same discriminator output afterwards, and scores fakes generated
under no_grad and detached. Every one of these looks like a classic autograd mistake, and all are intended: the EMA
copy is never trained by gradients, the retained graph is freed at the end of the step, and the penalty needs the
input gradient. The asserts check that the generator and discriminator both move, that the EMA copy follows the
generator by exactly (1 - beta), gets no gradients and has no history, that the R1 term changes the discriminator
gradient, and that the graph does not leak into the next step.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)
torch.set_num_threads(1)


def update_average(model_tgt, model_src, beta=0.999):
    with torch.no_grad():
        param_dict_src = dict(model_src.named_parameters())
        for p_name, p_tgt in model_tgt.named_parameters():
            p_src = param_dict_src[p_name]
            assert p_src is not p_tgt
            p_tgt.copy_(beta * p_tgt + (1.0 - beta) * p_src)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.LeakyReLU(0.2), nn.Linear(32, 16))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def calc_grad2(self, d_out, x_in):
        grad = autograd.grad(outputs=d_out.mean(), inputs=x_in, create_graph=True, retain_graph=True)[0]
        return grad.pow(2).sum() / x_in.shape[0]


class Trainer:
    def __init__(self, r1_weight=10.0):
        self.gen = Generator()
        self.dis = Discriminator()
        self.gen_test = copy.deepcopy(self.gen)
        self.gen_opt = torch.optim.RMSprop(self.gen.parameters(), lr=1e-3)
        self.dis_opt = torch.optim.RMSprop(self.dis.parameters(), lr=1e-3)
        self.r1_weight = r1_weight

    def gen_update(self, z, x_ref):
        self.gen_opt.zero_grad()
        fake = self.gen(z)
        loss = -self.dis(fake).mean() + 0.1 * F.l1_loss(fake, x_ref)
        loss.backward()
        self.gen_opt.step()
        update_average(self.gen_test, self.gen)
        return loss

    def dis_update(self, z, xb):
        self.dis_opt.zero_grad()
        xb.requires_grad_()
        resp_r = self.dis(xb)
        l_real = F.relu(1.0 - resp_r).mean()
        l_real.backward(retain_graph=True)
        l_reg = self.r1_weight * self.dis.calc_grad2(resp_r, xb)
        l_reg.backward()
        with torch.no_grad():
            xt = self.gen(z)
        l_fake = F.relu(1.0 + self.dis(xt.detach())).mean()
        l_fake.backward()
        self.dis_opt.step()
        return l_real + l_fake + l_reg, resp_r


real = torch.randn(64, 16) * 0.5 + 1.0
trainer = Trainer()
g_before = [p.clone() for p in trainer.gen.parameters()]
d_before = [p.clone() for n, p in trainer.dis.named_parameters() if n.endswith("weight")]

torch.manual_seed(1)
z = torch.randn(64, 8)
_, resp_r = trainer.dis_update(z, real.clone())
ema_before = [p.clone() for p in trainer.gen_test.parameters()]
trainer.gen_update(z, real)

d_after = [p for n, p in trainer.dis.named_parameters() if n.endswith("weight")]
assert all(not torch.equal(b, p) for b, p in zip(d_before, d_after))
assert all(not torch.equal(b, p) for b, p in zip(g_before, trainer.gen.parameters()))
for e_old, e_new, g_new in zip(ema_before, trainer.gen_test.parameters(), trainer.gen.parameters()):
    assert torch.allclose(e_new, 0.999 * e_old + 0.001 * g_new, atol=1e-7)
    assert e_new.grad is None and e_new.grad_fn is None

# the R1 term really reaches the discriminator gradient
def d_grad(r1_weight):
    torch.manual_seed(5)
    t = Trainer(r1_weight=r1_weight)
    t.dis_opt.step = lambda: None
    t.dis_update(torch.randn(64, 8), real.clone())
    return torch.cat([p.grad.flatten() for p in t.dis.parameters()])


assert not torch.allclose(d_grad(0.0), d_grad(10.0))

# the retained graph does not outlive the step: a second step builds a fresh graph of the same size
def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


_, resp_r2 = trainer.dis_update(torch.randn(64, 8), real.clone())
assert graph_size(resp_r2) == graph_size(resp_r)
for _ in range(20):
    zz = torch.randn(64, 8)
    trainer.dis_update(zz, real.clone())
    trainer.gen_update(zz, real)
print("EMA generator tracks the generator; R1 and retained graph behave as intended")
