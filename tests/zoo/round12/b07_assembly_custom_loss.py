"""
expect: GL002 50
dynamic: confirm
source: https://github.com/Wuziyi616/multi_part_assembly/issues/4

A user added a custom term to the part-assembly model's loss dict; training ran,
but the custom loss stayed flat, and printing the dict showed every built-in term
with a grad_fn except the custom one. The issue does not show how the term was computed; this program rebuilds one
common way: a pairwise-spacing term computed on the predictions pulled out with
.detach().numpy() and wrapped back with torch.tensor. The asserts show the custom
term has no grad_fn, adds nothing to any gradient, and the rotation head (which
only that term was meant to shape) gets no gradient at all.
"""
import numpy as np
import torch
import torch.nn as nn


class PartAssembler(nn.Module):
    def __init__(self, feat=8):
        super().__init__()
        self.encoder = nn.Linear(feat, 16)
        self.trans_head = nn.Linear(16, 3)
        self.rot_head = nn.Linear(16, 4)

    def forward(self, parts):
        h = torch.relu(self.encoder(parts))
        return self.trans_head(h), self.rot_head(h)


class AssemblyLosses:
    def __init__(self, weights):
        self.weights = weights

    def trans_loss(self, trans, gt_trans):
        return ((trans - gt_trans) ** 2).sum(-1).mean()

    def spacing_loss(self, trans, quat):
        t = trans.detach().numpy()
        q = quat.detach().numpy()
        q = q / np.linalg.norm(q, axis=-1, keepdims=True)
        gaps = np.linalg.norm(t[:, None, :] - t[None, :, :], axis=-1)
        penalty = np.mean(np.maximum(0.5 - gaps, 0.0)) + np.mean(1.0 - np.abs(q[:, 0]))
        return penalty

    def __call__(self, out, gt_trans):
        trans, quat = out
        loss_dict = {
            "trans_loss": self.trans_loss(trans, gt_trans),
            "custom_loss": torch.tensor(self.spacing_loss(trans, quat), dtype=torch.float32),
        }
        total = sum(self.weights[k] * v for k, v in loss_dict.items())
        return total, loss_dict


torch.manual_seed(0)
parts, gt = torch.randn(6, 8), torch.randn(6, 3)
model = PartAssembler()
crit = AssemblyLosses({"trans_loss": 1.0, "custom_loss": 1.0})

total, parts_dict = crit(model(parts), gt)
assert parts_dict["trans_loss"].grad_fn is not None
assert parts_dict["custom_loss"].grad_fn is None
total.backward()
assert model.rot_head.weight.grad is None and model.rot_head.bias.grad is None
with_custom = model.encoder.weight.grad.clone()

model.zero_grad()
crit_no_custom = AssemblyLosses({"trans_loss": 1.0, "custom_loss": 0.0})
crit_no_custom(model(parts), gt)[0].backward()
assert torch.allclose(with_custom, model.encoder.weight.grad)
print("custom term:", parts_dict["custom_loss"], "rot_head grad:", model.rot_head.weight.grad)
