"""
expect: GL005 bigan_trainer.py:35
dynamic: confirm
source: https://github.com/mperezcarrasco/PyTorch-BiGAN/issues/1

The report: the BiGAN code cannot run and fails with "one of the variables needed
for gradient computation has been modified by an inplace operation"; the fix
offered is to run a fresh generator/encoder forward after the discriminator
update. This program keeps the original order in bigan_trainer.py: both losses
come from one forward through D, the discriminator loss is backpropagated with
retain_graph=True, opt_d.step() updates D's weights in place, and then the
encoder/generator loss is backpropagated through the same graph. The asserts
show D's saved weight moves to a new version and the second backward raises the
"inplace" error.
"""
import torch

from bigan_trainer import BiGANTrainer

torch.manual_seed(0)
trainer = BiGANTrainer()
x = torch.randn(8, 10)
w = trainer.D.net[0].weight
v_before = w._version
try:
    trainer.train_step(x)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "inplace" in err, err
assert w._version > v_before
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in trainer.E.parameters())
print("BiGAN step raised:", err.splitlines()[0][:80])
