"""
expect: none
dynamic: dismiss
source: https://github.com/nkolot/SPIN/blob/master/train/trainer.py

SPIN-style training of a pose regressor with an optimiser in the loop. The regressor
predicts body-model pose parameters from image features; its detached predictions
initialise an SMPLify-style fit (smplify.py), which runs its own small Adam loop on a
leaf copy. Whenever the new fit explains the keypoints better than the one cached for
that sample, the cache is overwritten in place (opt_pose[update] = ...), and the
cached fits then supervise the regressor as pseudo ground truth, next to a direct
keypoint loss. The .detach() on the prediction and the in-place cache edit are on
purpose: the fits are targets, not something to differentiate through, and the
cache tensor is never saved by any recorded op. The asserts check that the regressor
receives gradients from both terms, that the fitted targets carry no graph, that the
cache only improves, and that the regressor's loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from smplify import BodyModel, SMPLify

torch.manual_seed(0)
torch.set_num_threads(1)

N, FEAT, N_POSE = 16, 20, 12


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 64), nn.ReLU(), nn.Linear(64, N_POSE))

    def forward(self, feats):
        return self.net(feats)


body = BodyModel(n_params=N_POSE)
fitter = SMPLify(body)
feats = torch.randn(N, FEAT)
with torch.no_grad():
    true_pose = torch.randn(N, N_POSE) * 0.8
    kp2d = body.keypoints(true_pose) + 0.01 * torch.randn(N, body.n_kp, 2)

model = Regressor()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
opt_pose = torch.zeros(N, N_POSE)                       # cached fits, one per sample
opt_fit_loss = fitter.fitting_loss(opt_pose, kp2d).detach()

history = []
for it in range(40):
    pred_pose = model(feats)
    new_pose, new_fit_loss = fitter(pred_pose.detach(), kp2d)
    update = new_fit_loss < opt_fit_loss
    opt_pose[update] = new_pose[update]
    opt_fit_loss[update] = new_fit_loss[update]

    loss_kp = F.mse_loss(body.keypoints(pred_pose), kp2d)
    loss_regr = F.mse_loss(pred_pose, opt_pose)
    loss = loss_kp + loss_regr
    optimizer.zero_grad()
    loss.backward()
    if it == 0:
        assert opt_pose.grad_fn is None and not opt_pose.requires_grad
        assert new_pose.grad_fn is None
        g = model.net[0].weight.grad
        assert g is not None and g.abs().sum() > 0
        first_fit = opt_fit_loss.mean().item()
    optimizer.step()
    history.append(loss.item())

assert history[-1] < history[0]
assert opt_fit_loss.mean().item() <= first_fit
print("regressor loss %.4f -> %.4f, mean fit error %.4f" % (history[0], history[-1], opt_fit_loss.mean().item()))
