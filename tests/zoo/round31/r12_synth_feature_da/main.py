"""
expect: GL001 trainer.py:40
dynamic: confirm
source: https://github.com/jason718/game-feature-learning/issues/3

In this synthetic-to-real feature learning repo, a reader noticed that the synthetic
features were detached not only for the discriminator update (fine) but also when the
base network B and heads H were updated to fool the discriminator. With that detach the
adversarial term cannot reach B, so B never learns domain-invariant features; the author
agreed and fixed it. Here the trainer in trainer.py detaches f_syn inside bh_loss. The
asserts show the adversarial term gives B no gradient at all (and adv_weight does not
change the update), while the same term without the detach does reach B.
"""
import torch
import torch.nn.functional as F
from trainer import Nets, SynRealTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

nets = Nets()
tr = SynRealTrainer(nets)
x_syn, y_syn = torch.randn(32, 12), torch.randint(0, 4, (32,))
x_real = torch.randn(32, 12) + 1.0

for _ in range(3):
    tr.step_d(x_syn, x_real)
    tr.step_bh(x_syn, y_syn)

# gradient of the adversarial term alone on the base network
nets.zero_grad()
_, adv = tr.bh_loss(x_syn, y_syn)
adv.backward()
g = nets.base[0].weight.grad
assert g is None or g.abs().sum() == 0, "adversarial term reached the base network"

# adv_weight does not change the base gradient
def base_grad(w):
    tr.adv_weight = w
    nets.zero_grad()
    tr.bh_loss(x_syn, y_syn)[0].backward()
    return nets.base[0].weight.grad.clone()
assert torch.allclose(base_grad(0.0), base_grad(10.0))

# fixed variant: no detach, the adversarial term reaches B
nets.zero_grad()
f = nets.base(x_syn)
d = nets.disc(f)
F.binary_cross_entropy_with_logits(d, torch.ones_like(d)).backward()
assert nets.base[0].weight.grad.abs().sum() > 0
print("bug confirmed: adversarial loss never trains the base network")
