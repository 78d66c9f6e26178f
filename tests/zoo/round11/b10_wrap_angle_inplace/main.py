"""
expect: GL005 geometry_utils.py:13
dynamic: confirm
source: https://github.com/NVlabs/CTG/issues/3

The report: a generated guidance loss ("ChangeToLeftLane", and also KeepDistanceLoss) failed in
backward with "modified by an inplace operation"; the fix that worked was to clone yaw_pred before the
transformations in tbsim/utils/geometry_utils.py. This program rebuilds a trajectory decoder whose
predicted yaw feeds cos/sin (which save yaw for backward) and is then passed to wrap_angle() in
geometry_utils.py, which normalises it in place with copy_(). The asserts catch the RuntimeError
mentioning the in-place change and the bumped version, and show that passing yaw.clone() trains.
"""
import torch
import torch.nn as nn

from geometry_utils import heading_vector, transform_points, wrap_angle


class TrajDecoder(nn.Module):
    def __init__(self, horizon=6):
        super().__init__()
        self.horizon = horizon
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, horizon * 3))

    def forward(self, ctx):
        out = self.net(ctx).view(-1, self.horizon, 3)
        return out[..., :2], out[..., 2] * 4.0  # positions, yaw (radians, may leave [-pi, pi))


def lane_change_loss(pos, yaw, target_heading, lane_offset, clone_yaw):
    heading = heading_vector(yaw)
    align = (1 - (heading * target_heading).sum(-1)).mean()
    local = transform_points(pos, yaw, torch.zeros(2))
    lateral = ((local[..., 1] - lane_offset) ** 2).mean()
    yaw_w = wrap_angle(yaw.clone() if clone_yaw else yaw)
    smooth = (yaw_w[:, 1:] - yaw_w[:, :-1]).pow(2).mean()
    return align + lateral + 0.1 * smooth


torch.manual_seed(0)
model = TrajDecoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
ctx = torch.randn(4, 16)
target_heading = torch.tensor([0.0, 1.0])

pos, yaw = model(ctx)
try:
    lane_change_loss(pos, yaw, target_heading, 3.5, clone_yaw=False).backward()
    raise SystemExit("expected the in-place version error")
except RuntimeError as err:
    assert "inplace" in str(err) and "version" in str(err), err
    print("caught:", str(err).split(":")[0])

w0 = model.net[0].weight.detach().clone()
opt.zero_grad()
pos, yaw = model(ctx)
lane_change_loss(pos, yaw, target_heading, 3.5, clone_yaw=True).backward()
opt.step()
assert not torch.equal(w0, model.net[0].weight)
print("ok: in-place angle wrapping of a saved yaw breaks backward; cloning fixes it")
