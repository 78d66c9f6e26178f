"""Goal-conditioned trajectory decoder: scores candidate goals, then completes the path to a goal."""
import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.linear = nn.Linear(inp, out)
        self.norm = nn.LayerNorm(out)

    def forward(self, x):
        return F.relu(self.norm(self.linear(x)))


class GoalDecoder(nn.Module):
    def __init__(self, hidden=32, future=6, detach_target=True):
        super().__init__()
        self.future = future
        self.detach_target = detach_target
        self.goal_point_encoder = nn.Sequential(MLP(2, hidden), MLP(hidden, hidden))
        self.goal_scorer = nn.Sequential(MLP(2 * hidden, hidden), nn.Linear(hidden, 1))
        self.goals_2D_mlps = nn.Sequential(MLP(2, hidden), MLP(hidden, hidden))
        self.complete_traj_decoder = nn.Sequential(MLP(2 * hidden, hidden), nn.Linear(hidden, future * 2))

    def scores(self, agent_state, candidates):
        goal_feat = self.goal_point_encoder(candidates)
        pair = torch.cat([agent_state.expand(len(candidates), -1), goal_feat], dim=-1)
        return F.log_softmax(self.goal_scorer(pair).squeeze(-1), dim=0)

    def example_loss(self, agent_state, candidates, gt_traj):
        scores = self.scores(agent_state, candidates)
        label = torch.cdist(candidates, gt_traj[-1:]).argmin()
        loss = F.nll_loss(scores.unsqueeze(0), label.view(1))
        target_feature = self.goals_2D_mlps(gt_traj[-1])
        if self.detach_target:
            target_feature.detach_()
        predict_traj = self.complete_traj_decoder(torch.cat([agent_state, target_feature], dim=-1))
        loss = loss + F.smooth_l1_loss(predict_traj.view(self.future, 2), gt_traj)
        return loss
