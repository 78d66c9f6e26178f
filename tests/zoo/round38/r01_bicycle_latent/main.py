"""
expect: GL005 bicycle_model.py:65, GL005 bicycle_model.py:66
dynamic: confirm
source: https://github.com/junyanz/BicycleGAN/issues/87

BicycleGAN issue: backward_G_alone fails with "modified by an inplace operation ... TBackward"
after backward_EG. The model runs the encoder on the random-z fake in forward(), backprops the
cVAE loss with retain_graph=True, then calls the encoder optimizer's step() (an in-place update
of E's weights that the saved E graph needs) before backpropagating the latent L1 loss through
that same graph. The asserts show the buggy order raises the version-counter error, while the
fixed order (latent loss backpropagated before any step) trains G.
"""
import torch
from bicycle_model import BicycleModel

torch.manual_seed(0)
torch.set_num_threads(1)

A = torch.randn(8, 6)
B = torch.randn(8, 12)

buggy = BicycleModel()
err = None
try:
    buggy.optimize(A, B)
except RuntimeError as e:
    err = str(e)
assert err is not None and "inplace operation" in err, err

torch.manual_seed(0)
fixed = BicycleModel(fix_order=True)
w0 = fixed.netG.net[0].weight.detach().clone()
for _ in range(3):
    fixed.optimize(A, B)
assert not torch.equal(w0, fixed.netG.net[0].weight)
assert torch.isfinite(fixed.loss_z)
print("buggy order raised:", err.split("\n")[0][:90])
print("ok")
