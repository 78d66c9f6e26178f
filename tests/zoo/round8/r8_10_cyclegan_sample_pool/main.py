"""
expect: GL004 sample_pool.py:21
expect: GL004 51
dynamic: confirm
source: https://github.com/Asthestarsfalll/Symbolic-Music-Genre-Transfer-with-CycleGAN-for-pytorch/issues/4

CycleGAN-style training with a history pool of generated samples (helper
module sample_pool.py). The pool stores the generator outputs themselves, not
detached copies, so every stored sample keeps its graph through the generator
alive across iterations; and because a pooled sample from an earlier step can
be fed to the discriminator again, the loop calls backward(retain_graph=True)
every step, so the saved activations of each of those graphs are kept too.
Memory grows with every iteration until the pool is full ("retain_graph=True
... GPU memory explodes as steps accumulate"). Asserted: the generator's hidden
activations of every past step are still alive (held by retained graphs).
"""
import gc
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F

from sample_pool import SamplePool

torch.manual_seed(0)
activations = []  # weak references to the generator's hidden activation, one per step


def remember(module, inputs, output):
    activations.append(weakref.ref(output))


G_A2B = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 6), nn.Sigmoid())
D_B = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
G_A2B[1].register_forward_hook(remember)
opt_G = torch.optim.Adam(G_A2B.parameters(), lr=2e-3)
opt_D = torch.optim.Adam(D_B.parameters(), lr=2e-3)
pool = SamplePool(max_length=50)
ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)

alive_per_step = []
for step in range(6):
    real_a, real_b = torch.rand(4, 6), torch.rand(4, 6)
    opt_G.zero_grad()
    opt_D.zero_grad()
    fake_b = G_A2B(real_a)
    sample_b = pool(fake_b)
    g_loss = F.mse_loss(D_B(fake_b), ones)
    d_loss = 0.5 * (F.mse_loss(D_B(real_b), ones) + F.mse_loss(D_B(sample_b), zeros))
    (g_loss + d_loss).backward(retain_graph=True)
    opt_G.step()
    opt_D.step()
    del fake_b, sample_b, g_loss, d_loss
    gc.collect()
    alive_per_step.append(sum(ref() is not None for ref in activations))

assert all(img.grad_fn is not None for img in pool.images), "pool should hold graphs"
assert alive_per_step == [1, 2, 3, 4, 5, 6], alive_per_step
print("OK: activations kept alive by retained graphs per step:", alive_per_step)
