"""
expect: none
dynamic: dismiss
source: https://github.com/lukasruff/Deep-SVDD-PyTorch/issues/21

One-class anomaly detection with soft-boundary Deep SVDD: a bias-free encoder maps normal data into
a small hypersphere of centre c and radius R. Two things look like cut paths but are the method as
published: c is the mean output of an initial forward pass computed under torch.no_grad() and kept
fixed (the issue asks why c is never updated; the answer is that fixing c avoids the trivial
collapse), and R is not a parameter at all - after each step it is reset by line search to the
(1 - nu)-quantile of the batch distances, rebuilt with torch.tensor(numpy quantile) and written
through R.data, and then used as a constant in the next loss. The encoder is trained through the
distances. The asserts show that the encoder gets gradients and its distances shrink, that c stays
put, and that R equals the quantile of the last batch.
"""
import numpy as np
import torch
import torch.nn as nn

from trainer import DeepSVDDTrainer, get_radius

torch.manual_seed(0)
torch.set_num_threads(1)

normal = torch.randn(256, 10) * 0.5 + 1.0
loader = [normal[i:i + 64] for i in range(0, 256, 64)]
net = nn.Sequential(nn.Linear(10, 32, bias=False), nn.LeakyReLU(), nn.Linear(32, 8, bias=False))

trainer = DeepSVDDTrainer(nu=0.1, lr=1e-3, epochs=30)
c_before = trainer.init_center_c(loader, net)
trainer.c = c_before.clone()
with torch.no_grad():
    d0 = torch.sum((net(normal) - trainer.c) ** 2, dim=1).mean().item()
w_before = net[0].weight.detach().clone()

history = trainer.train(loader, net)

assert net[0].weight.grad is not None and net[0].weight.grad.abs().sum() > 0
assert not torch.equal(w_before, net[0].weight)
assert torch.equal(trainer.c, c_before) and not trainer.c.requires_grad
assert not trainer.R.requires_grad and trainer.R.item() > 0
with torch.no_grad():
    d1 = torch.sum((net(normal) - trainer.c) ** 2, dim=1).mean().item()
    last = torch.sum((net(loader[-1]) - trainer.c) ** 2, dim=1)
assert d1 < 0.5 * d0, (d0, d1)
assert history[-1] < history[0]
R_check = get_radius(last, trainer.nu)
assert np.isfinite(R_check) and abs(R_check - trainer.R.item()) < 0.5
print("mean squared distance to c: %.3f -> %.3f, radius R = %.3f" % (d0, d1, trainer.R.item()))
