"""
expect: GL005 tab_model.py:54
dynamic: confirm
source: https://github.com/dreamquark-ai/tabnet/pull/323

Tabular deep learning with a TabNet-style regressor. The library's training step
computes the task loss with the user's loss_fn and then adds the attention-mask sparsity
regulariser with an in-place `loss -= lambda_sparse * M_loss`. With the default
MSELoss this happens to work (mse_loss does not save its output), but a user loss such as
RMSE = sqrt(MSE + eps) returns the output of SqrtBackward, which saves that very tensor
for the backward pass; the in-place subtraction bumps its version and backward fails with
"one of the variables needed for gradient computation has been modified by an inplace
operation ... output 0 of SqrtBackward0". The pull request replaced it with an
out-of-place subtraction. tab_model.py keeps the library's `_train_batch` structure; the
asserts show the default MSE path runs, the custom RMSE path raises the in-place error,
and the out-of-place version trains the RMSE model to a much lower error.
"""
import torch
import torch.nn as nn

from tab_model import TabNetLikeRegressor

torch.manual_seed(0)
torch.set_num_threads(1)


class RMSELoss(nn.Module):
    def forward(self, x, y):
        return torch.sqrt(nn.functional.mse_loss(x, y) + 1e-6)


N, F = 512, 8
X = torch.randn(N, F)
y = 2.0 * X[:, 0] - 1.5 * X[:, 3] + 0.5 * X[:, 5] * X[:, 1] + 0.1 * torch.randn(N)

# default loss: the in-place penalty is silently fine
clf = TabNetLikeRegressor(F)
clf.fit(X, y, epochs=1)

# user-defined RMSE loss: the in-place penalty breaks backward
clf = TabNetLikeRegressor(F, loss_fn=RMSELoss())
raised = None
try:
    clf.fit(X, y, epochs=1)
except RuntimeError as e:
    raised = str(e)
print("custom RMSE:", (raised or "no error")[:120])
assert raised is not None and "inplace operation" in raised and "Sqrt" in raised

# fixed: out-of-place subtraction
clf = TabNetLikeRegressor(F, loss_fn=RMSELoss())
clf.inplace_sparse_penalty = False
history = clf.fit(X, y, epochs=25)
print(f"fixed RMSE training: first epoch {history[0]:.3f} last epoch {history[-1]:.3f}")
assert history[-1] < 0.5 * history[0]
print("OK: in-place edit of the sqrt output raises; out-of-place penalty trains")
