"""
expect: GL002 rotations.py:38
dynamic: confirm
source: https://github.com/jeffffffli/HybrIK/issues/28

A small human-mesh-recovery head regresses one axis-angle rotation per joint from
image features, turns it into a rotation matrix (Rodrigues) and then into a
quaternion, and supervises the quaternions against ground truth (the "theta" loss)
next to an ordinary shape ("beta") loss. The quaternion helper in rotations.py
assembles the four components of each matrix with torch.tensor([w, x, y, z]): that
copies the values into a brand-new tensor, so the theta loss is a constant for
autograd and the pose branch never receives a gradient, exactly the "no gradient
flows back through loss_theta" symptom of the report (fixed upstream by stacking
the components instead). The asserts show that after backward the pose layer's
gradient is None while the shape layer is trained, and that the stacked conversion
gives the pose layer a real gradient.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from rotations import axis_angle_to_matrix, rotmat_to_quat, rotmat_to_quat_stacked

# torch.tensor() over tensors that require grad also emits a UserWarning in recent
# releases; keep the run's output quiet.
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")

torch.manual_seed(0)
torch.set_num_threads(1)

N_JOINTS = 6
FEAT = 32


class MeshHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(64, FEAT), nn.ReLU())
        self.pose = nn.Linear(FEAT, N_JOINTS * 3)
        self.shape = nn.Linear(FEAT, 10)

    def forward(self, feats):
        h = self.trunk(feats)
        rotvec = 0.5 * torch.tanh(self.pose(h)).view(-1, 3)
        return axis_angle_to_matrix(rotvec), self.shape(h)


def train_step(model, opt, to_quat, feats, gt_quat, gt_beta):
    opt.zero_grad()
    rotmats, beta = model(feats)
    pred_quat = to_quat(rotmats)
    loss_theta = F.mse_loss(pred_quat, gt_quat)
    loss_beta = F.mse_loss(beta, gt_beta)
    (loss_theta + loss_beta).backward()
    pose_grad = model.pose.weight.grad
    shape_grad = model.shape.weight.grad.clone()
    opt.step()
    return pose_grad, shape_grad


feats = torch.randn(4, 64)
with torch.no_grad():
    gt_rot = axis_angle_to_matrix(0.5 * torch.randn(4 * N_JOINTS, 3))
    gt_quat = rotmat_to_quat_stacked(gt_rot)
gt_beta = torch.randn(4, 10)

model = MeshHead()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
pose_before = model.pose.weight.detach().clone()
pose_grad, shape_grad = train_step(model, opt, rotmat_to_quat, feats, gt_quat, gt_beta)
assert pose_grad is None, "the theta loss should not reach the pose layer"
assert shape_grad.abs().sum() > 0
assert torch.equal(model.pose.weight.detach(), pose_before), "pose layer must not move"

torch.manual_seed(0)
fixed = MeshHead()
opt2 = torch.optim.SGD(fixed.parameters(), lr=0.1)
pose_grad2, _ = train_step(fixed, opt2, rotmat_to_quat_stacked, feats, gt_quat, gt_beta)
assert pose_grad2 is not None and pose_grad2.abs().sum() > 0

print("rebuilt quaternions: pose grad None =", pose_grad is None)
print("stacked quaternions: pose grad norm = %.4f" % pose_grad2.norm().item())
