"""expect: GL001 model.py:39
dynamic: confirm
source: https://github.com/yanmn/RELI11DandLIER/issues/3

A multimodal human-motion regressor (RELI11D-style): a VIBE-like temporal encoder turns per-frame image
features into features plus SMPL-style parameters, and a fusion branch (projection `fc`, self-attention,
joint head) regresses 3D joints. In the regressor the projected features are detached right after
`self.fc(...)`, which the issue reporters questioned. The VIBE encoder still learns from its own theta
loss, but the projection `fc` sits only on the cut path: the joint loss cannot reach it and no other
loss uses it, so although the optimizer holds it, it never gets a gradient. The asserts show
fc.weight.grad is None (and fc does not move) while VIBE and the fusion layers train, and that without
the detach the same joint loss does reach fc.
"""
import torch
import torch.nn.functional as F

from model import FusionRegressor


class IntendedRegressor(FusionRegressor):
    """Same network, but the projected features keep their history."""

    def forward(self, img_feats):
        B, T, _ = img_feats.shape
        img_feature, smpl_output = self.vibe(img_feats)
        feature = self.fuse(self.fc(img_feature).view(B, T, -1))
        joints = self.joint_head(feature).view(B, T, self.n_joints, 3)
        return {"joint": joints, "img_theta": smpl_output["theta"]}

torch.manual_seed(0)
torch.set_num_threads(1)

B, T = 4, 6
img_feats = torch.randn(B, T, 32)
gt_joints = torch.randn(B, T, 8, 3)
gt_theta = torch.randn(B, T, 12)


def train(cls, steps=3):
    torch.manual_seed(1)
    model = cls()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    fc_before = model.fc.weight.detach().clone()
    for _ in range(steps):
        opt.zero_grad()
        pred = model(img_feats)
        loss = F.mse_loss(pred["joint"], gt_joints) + 0.5 * F.mse_loss(pred["img_theta"], gt_theta)
        loss.backward()
        opt.step()
    return model, fc_before


model, fc_before = train(FusionRegressor)
assert model.fc.weight.grad is None and model.fc.bias.grad is None, "fc unexpectedly got a gradient"
assert torch.equal(model.fc.weight, fc_before), "fc moved"
assert model.vibe.gru.weight_ih_l0.grad is not None  # VIBE still learns from its theta loss
assert model.joint_head.weight.grad is not None and model.attn.in_proj_weight.grad is not None

ref, ref_fc_before = train(IntendedRegressor)
assert ref.fc.weight.grad is not None and ref.fc.weight.grad.abs().sum() > 0
assert not torch.equal(ref.fc.weight, ref_fc_before)
print("with detach: fc never trained; without detach: joint loss reaches fc")
