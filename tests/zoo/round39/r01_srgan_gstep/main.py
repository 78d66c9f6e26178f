"""
expect: GL003 trainer.py:33
dynamic: confirm
source: https://github.com/Lornatang/SRGAN-PyTorch/issues/37

In the SRGAN report the super-resolved image was produced under torch.no_grad(),
so the generator loss had no graph and backward failed. Here the trainer makes
the SR image once under no_grad (shared by the D and G steps) and the G step
"fixes" the error with sr.requires_grad_(True). Training now runs, but the
generator never receives a gradient. The asserts show the generator weights stay
bitwise unchanged and grads are None, while a variant that runs the generator with
grad enabled does update them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import SRTrainer

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyGen(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 12, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(self.body(x))


class TinyDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))

    def forward(self, x):
        return self.net(x)


gen, disc = TinyGen(), TinyDisc()
trainer = SRTrainer(gen, disc)
g_before = [p.detach().clone() for p in gen.parameters()]
for _ in range(3):
    lr_img = torch.rand(2, 3, 8, 8)
    hr = torch.rand(2, 3, 16, 16)
    loss = trainer.step(lr_img, hr)

assert all(p.grad is None for p in gen.parameters())
assert all(torch.equal(a, b) for a, b in zip(g_before, gen.parameters()))

# fixed variant: run the generator with grad for the G step
torch.manual_seed(0)
gen2, disc2 = TinyGen(), TinyDisc()
t2 = SRTrainer(gen2, disc2)
t2.make_sr = lambda x: gen2(x)
before2 = [p.detach().clone() for p in gen2.parameters()]
lr_img = torch.rand(2, 3, 8, 8)
hr = torch.rand(2, 3, 16, 16)
sr = gen2(lr_img)
t2.d_step(sr.detach(), hr)
t2.g_step(sr, hr)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in gen2.parameters())
assert any(not torch.equal(a, b) for a, b in zip(before2, gen2.parameters()))
print("ok: generator frozen by no_grad + requires_grad_ fix")
