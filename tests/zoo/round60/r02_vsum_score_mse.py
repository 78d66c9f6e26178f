"""
expect: GL002 52, GL003 56
dynamic: confirm
source: https://github.com/YoimiyaKamisato/VSumMamba/blob/cd5028fe4ec01d373a83d9fb21c5542245fb0a92/train_1.py

VSumMamba trains a video-summarisation model with two terms: a per-frame key-shot cross-entropy and
an MSE between the predicted frame importance and the annotated gtscore. For the MSE term the
training loop takes the sigmoid of each frame's logits, pulls every value out with float(...) into
Python lists, rebuilds them with torch.Tensor(...), and then sets loss_mse.requires_grad = True,
as if that reconnected the term to the network. The importance regression therefore
never reaches the network: the MSE is a fresh leaf, and the total loss has exactly the gradient of
the cross-entropy alone. This program keeps that loop on a tiny frame scorer: the asserts show the
MSE leaf has no grad_fn, the backbone gradient is identical with and without the MSE term, the
importance error does not improve more than with cross-entropy only, and the fixed variant (keep
the sigmoid scores as tensors) drives the importance MSE down.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad")
torch.manual_seed(0)
torch.set_num_threads(1)

B, T, D = 8, 12, 16           # clips, frames per clip, frame feature size
feats = torch.randn(B, T, D)
gtscore = torch.sigmoid(feats[..., 0] * 1.5)          # annotated importance in [0, 1]
keyshot = (gtscore > 0.5).long()                         # binary key-shot labels
lamda = 2.0


class FrameScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(D, 32), nn.ReLU())
        self.head = nn.Linear(32, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


def losses(model, fixed):
    output = model(feats)                                # (B, T, 2)
    ce = nn.functional.cross_entropy(output.reshape(-1, 2), keyshot.reshape(-1))
    probs = torch.sigmoid(output)[..., 1]
    if fixed:
        return ce, nn.functional.mse_loss(probs, gtscore)
    pred_last = []
    for s in probs.reshape(-1):
        pred_last.append(float(s))
    pred_last = torch.Tensor(pred_last)
    loss_mse = nn.functional.mse_loss(pred_last, gtscore.reshape(-1))
    if loss_mse != loss_mse:
        print("loss_mse is NaN")
    loss_mse.requires_grad = True
    return ce, loss_mse


def train(fixed, use_mse=True, steps=200):
    torch.manual_seed(1)
    model = FrameScorer()
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        ce, mse = losses(model, fixed)
        total = ce + lamda * mse if use_mse else ce
        total.backward()
        opt.step()
    with torch.no_grad():
        return ((torch.sigmoid(model(feats))[..., 1] - gtscore) ** 2).mean().item()


torch.manual_seed(1)
m = FrameScorer()
ce, mse = losses(m, fixed=False)
assert mse.grad_fn is None and mse.is_leaf
g_both = torch.autograd.grad(ce + lamda * mse, m.backbone[0].weight, retain_graph=True)[0]
g_ce = torch.autograd.grad(ce, m.backbone[0].weight)[0]
assert torch.equal(g_both, g_ce)

err_bug = train(fixed=False)
err_ce_only = train(fixed=False, use_mse=False)
err_fix = train(fixed=True)
assert abs(err_bug - err_ce_only) < 1e-7, (err_bug, err_ce_only)
assert err_fix < 0.5 * err_bug, (err_fix, err_bug)
print("ok: importance MSE rebuilt from floats is inert; fixed MSE", round(err_bug, 4), "->", round(err_fix, 4))
