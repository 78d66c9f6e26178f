"""
expect: GL005 tab_trainer.py:29
dynamic: confirm
source: https://github.com/dreamquark-ai/tabnet/issues/312

A user passed their own RMSELoss (sqrt of MSE) as loss_fn and training died with
"modified by an inplace operation: ... output 0 of SqrtBackward, is at version 1;
expected version 0". The library's fit loop subtracts the sparsity regulariser
from the user's loss in place. This program rebuilds that loop in
tab_trainer.py: torch.sqrt saves its own output for backward, and the in-place
"loss -=" bumps that output's version, so backward raises. With plain MSELoss
(which does not save its output) the same loop trains, which is why only the
custom loss exposed it.
"""
import torch
import torch.nn as nn

from tab_trainer import AttentiveRegressor, TabularFitter


class RMSELoss(nn.Module):
    def forward(self, pred, target):
        return torch.sqrt(nn.functional.mse_loss(pred, target) + 1e-6)


torch.manual_seed(0)
x, y = torch.randn(32, 6), torch.randn(32, 1)

fitter = TabularFitter(AttentiveRegressor(), RMSELoss())
try:
    fitter.train_batch(x, y)
    msg = None
except RuntimeError as err:
    msg = str(err)
assert msg is not None and "inplace" in msg and "Sqrt" in msg, msg

plain = TabularFitter(AttentiveRegressor(), nn.MSELoss())
w0 = plain.model.body[0].weight.detach().clone()
losses = [plain.train_batch(x, y) for _ in range(30)]
assert not torch.equal(w0, plain.model.body[0].weight)
assert losses[-1] < losses[0]
print("RMSE fit raised:", msg.splitlines()[0][:80])
