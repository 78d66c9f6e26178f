"""
expect: GL002 trainer.py:24
dynamic: confirm
source: https://github.com/robincourant/jaws/blob/HEAD/jaws/src/models/jaws_model.py

Camera poses are optimised through a frozen renderer (JAWS-style cinematic transfer): each camera
gets a rotation/translation correction, a pixel loss compares rendered and target frames, and a
regulariser is meant to keep every camera centre inside a ball around the scene. The per-camera
regulariser values are collected in a Python list and turned into a loss with
torch.tensor(reg_losses).mean(), which copies the numbers into a brand-new leaf tensor: the
regulariser is added to the total loss and shows up in the logs, but it sends no gradient to the
camera parameters. The asserts start every camera outside the allowed ball with a zero pixel loss,
so only the regulariser could move them: with the rebuilt tensor the translation gradient is zero
and the cameras never move, while stacking the same terms (torch.stack) pulls them back inside.
"""
import warnings

import torch

from camera import FrozenRenderer, MultiCameraTransform
from trainer import PoseOptimizer

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad")
torch.manual_seed(0)
torch.set_num_threads(1)

NUM_CAMS = 3
renderer = FrozenRenderer()
scene = {"pose_center": torch.zeros(3), "pose_norm": torch.tensor(1.0)}

init_poses = []
for i in range(NUM_CAMS):
    pose = torch.eye(4)
    pose[:3, 3] = torch.tensor([2.0 + 0.3 * i, -1.5, 1.0])  # well outside 0.6 * pose_norm
    init_poses.append(pose)


def make(seed):
    torch.manual_seed(seed)
    cams = MultiCameraTransform(NUM_CAMS)
    with torch.no_grad():
        targets = [renderer(cams(i, p)) for i, p in enumerate(init_poses)]  # pixel loss starts at 0
    return cams, targets


# --- as written: regulariser rebuilt with torch.tensor ---------------------------------------
cams, targets = make(1)
opt = PoseOptimizer(renderer, cams, scene, lr=5e-2)
trans_before = cams.trans.detach().clone()
first_reg = None
for _ in range(40):
    pix, reg = opt.step(init_poses, targets)
    first_reg = reg if first_reg is None else first_reg
assert first_reg > 1.0, first_reg
assert cams.trans.grad is not None and torch.count_nonzero(cams.trans.grad) == 0
assert torch.equal(cams.trans.detach(), trans_before), "cameras moved although only the regulariser could move them"
assert reg == first_reg

# --- intended: keep the regulariser in the graph ----------------------------------------------
cams2, targets2 = make(1)
opt2 = PoseOptimizer(renderer, cams2, scene, lr=5e-2)


def losses_stacked(init_poses, targets):
    preds, reg_losses = [], []
    for i, init_pose in enumerate(init_poses):
        pose = opt2.cams(i, init_pose)
        preds.append(opt2.renderer(pose))
        reg_losses.append(opt2.regularize(pose))
    return torch.mean((torch.stack(preds) - torch.stack(targets)) ** 2), torch.stack(reg_losses).mean()


opt2.losses = losses_stacked
first_reg2 = None
for _ in range(40):
    pix2, reg2 = opt2.step(init_poses, targets2)
    first_reg2 = reg2 if first_reg2 is None else first_reg2
assert abs(first_reg2 - first_reg) < 1e-4
assert reg2 < 0.5 * first_reg2, (first_reg2, reg2)
assert not torch.equal(cams2.trans.detach(), trans_before)

print(f"rebuilt regulariser: reg loss {first_reg:.3f} -> {reg:.3f}, cameras unchanged")
print(f"stacked regulariser: reg loss {first_reg2:.3f} -> {reg2:.3f}")
