"""
expect: none
dynamic: dismiss
source: kind 1

A reach-time predictor for a robot arm weighs joint error and joint velocity
with a coefficient vector built from a trainable horizon, using
torch.stack([torch.ones(()), F.softplus(self.raw_horizon)]). The stack keeps
the graph, so raw_horizon gets a gradient and the asserts show it converges to
the horizon that generated the data.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReachTimeModel(nn.Module):
    def __init__(self, n_joints=6):
        super().__init__()
        self.raw_horizon = nn.Parameter(torch.zeros(()))
        self.joint_scale = nn.Parameter(torch.ones(n_joints))

    def coefficients(self):
        return torch.stack([torch.ones(()), F.softplus(self.raw_horizon)])

    def forward(self, joint_err, joint_vel):
        coef = self.coefficients()
        feats = torch.stack([joint_err.abs(), joint_vel.abs()], dim=-1)  # (B, J, 2)
        per_joint = (feats * coef).sum(-1) * self.joint_scale
        return per_joint.max(dim=-1).values


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, err, vel, t_reach):
        loss = F.mse_loss(self.model(err, vel), t_reach)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ReachTimeModel()
    trainer = Trainer(model)
    true_h = 0.7
    losses = []
    for _ in range(400):
        err, vel = torch.randn(32, 6), torch.randn(32, 6)
        t_reach = (err.abs() + true_h * vel.abs()).max(dim=-1).values
        losses.append(trainer.step(err, vel, t_reach))
    assert model.raw_horizon.grad is not None
    h = F.softplus(model.raw_horizon).item()
    assert abs(h - true_h) < 0.05, h
    assert losses[-1] < 0.01 * losses[0]
    print("ok: horizon learned", round(h, 3))
