"""
expect: none
dynamic: dismiss
source: none, invented

Platt-style calibration of a frozen classifier's margins. The starting slope and bias come from a closed-form
least-squares fit done in NumPy; they are turned into a tensor with torch.from_numpy and then marked as
requiring grad, so they become the leaf parameters that Adam refines on the log-loss. Nothing upstream is
meant to train here: the classifier outputs are fixed data, and the calibration parameters are intentionally
created from NumPy values. The asserts show the parameters receive gradients, move away from their NumPy
initial values, and the negative log-likelihood drops.
"""
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

rng = np.random.default_rng(0)
margins = rng.normal(size=400).astype(np.float32) * 3.0
labels = (rng.random(400) < 1.0 / (1.0 + np.exp(-0.7 * margins + 0.4))).astype(np.float32)

design = np.stack([margins, np.ones_like(margins)], axis=1)
init, *_ = np.linalg.lstsq(design, labels * 2.0 - 1.0, rcond=None)
platt = torch.from_numpy(init.astype(np.float32))
platt.requires_grad = True

opt = torch.optim.Adam([platt], lr=0.05)
x = torch.from_numpy(margins)
y = torch.from_numpy(labels)

history = []
for step in range(200):
    logits = platt[0] * x + platt[1]
    nll = F.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    nll.backward()
    opt.step()
    history.append(nll.item())

assert platt.grad is not None
assert not np.allclose(platt.detach().numpy(), init)
assert history[-1] < history[0]
print("calibrated slope %.3f bias %.3f" % (platt[0].item(), platt[1].item()))
