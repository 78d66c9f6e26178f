"""expect: none
dynamic: dismiss

A robot grasping network predicts grasp success and gripper pose, and balances the pose loss by a weight read as a Python number from the detached losses. The number only scales `pose_loss`, which keeps its graph, so the weighted term still drives the pose head and training works.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraspNet(nn.Module):
    def __init__(self, depth_dim=64, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(depth_dim, hidden), nn.ReLU())
        self.success = nn.Linear(hidden, 1)
        self.pose = nn.Linear(hidden, 3)

    def forward(self, depth):
        h = self.trunk(depth)
        return self.success(h).squeeze(-1), self.pose(h)


def main():
    torch.manual_seed(0)
    depth = torch.randn(128, 64)
    success = (depth[:, :8].sum(dim=1) > 0).float()
    pose = depth[:, 8:11] * 0.5
    model = GraspNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    pose_hist = []
    for step in range(80):
        s_logit, p_pred = model(depth)
        grasp_loss = F.binary_cross_entropy_with_logits(s_logit, success)
        pose_loss = F.mse_loss(p_pred, pose)
        balance = grasp_loss.detach().item() / (pose_loss.detach().item() + 1e-8)
        loss = grasp_loss + balance * pose_loss
        if step == 0:
            (g_weighted,) = torch.autograd.grad(balance * pose_loss, model.pose.weight, retain_graph=True)
            (g_plain,) = torch.autograd.grad(pose_loss, model.pose.weight, retain_graph=True)
            assert g_weighted.abs().sum() > 0 and torch.allclose(g_weighted, balance * g_plain)
        opt.zero_grad()
        loss.backward()
        assert model.pose.weight.grad.abs().sum() > 0
        opt.step()
        pose_hist.append(pose_loss.item())
    assert pose_hist[-1] < 0.2 * pose_hist[0], (pose_hist[0], pose_hist[-1])
    print(f"D3 ok: weighted pose loss trains the pose head ({pose_hist[0]:.3f} -> {pose_hist[-1]:.3f})")


if __name__ == "__main__":
    main()
