"""
expect: GL001 decoder.py:38
dynamic: confirm
source: https://github.com/Tsinghua-MARS-Lab/DenseTNT/issues/11

A goal-based motion forecaster: an encoder summarises the agent's past track, a scoring head
picks the goal among map candidates (NLL loss), and a completion head predicts the whole
future path conditioned on an embedding of the ground-truth goal (smooth-L1 loss). The goal
embedding MLP (goals_2D_mlps) is meant to be trained by the completion loss, but the decoder
detaches its output in place before use, so that MLP never receives a gradient although the
optimizer holds it. The asserts show its grad is None and its weights do not move while the
completion decoder does learn, and that without the detach the MLP gets gradients.
"""
import torch
from torch import nn

from decoder import GoalDecoder


class HistoryEncoder(nn.Module):
    def __init__(self, past=5, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(past * 2, hidden), nn.ReLU(), nn.Linear(hidden, hidden))

    def forward(self, past_traj):
        return self.net(past_traj.reshape(-1))


def make_example(generator):
    velocity = torch.randn(2, generator=generator) * 0.5
    past = torch.arange(-4, 1).float().unsqueeze(1) * velocity
    future = torch.arange(1, 7).float().unsqueeze(1) * velocity
    candidates = future[-1] + torch.randn(12, 2, generator=generator)
    return past, future, candidates


def train(detach_target, steps=20):
    torch.manual_seed(0)
    encoder, decoder = HistoryEncoder(), GoalDecoder(detach_target=detach_target)
    params = list(encoder.parameters()) + list(decoder.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-2)
    goal_mlp_start = [p.detach().clone() for p in decoder.goals_2D_mlps.parameters()]
    completion_start = [p.detach().clone() for p in decoder.complete_traj_decoder.parameters()]
    gen = torch.Generator().manual_seed(1)
    for _ in range(steps):
        loss = 0.0
        for _ in range(4):
            past, future, candidates = make_example(gen)
            loss = loss + decoder.example_loss(encoder(past), candidates, future)
        optimizer.zero_grad()
        loss.backward()
        goal_grads = [p.grad for p in decoder.goals_2D_mlps.parameters()]
        optimizer.step()
    goal_moved = max((p - s).abs().max().item() for p, s in zip(decoder.goals_2D_mlps.parameters(), goal_mlp_start))
    completion_moved = max((p - s).abs().max().item() for p, s in zip(decoder.complete_traj_decoder.parameters(), completion_start))
    return goal_grads, goal_moved, completion_moved


torch.set_num_threads(1)
goal_grads, goal_moved, completion_moved = train(detach_target=True)
assert all(g is None for g in goal_grads)
assert goal_moved == 0.0 and completion_moved > 1e-3

goal_grads_ok, goal_moved_ok, _ = train(detach_target=False)
assert all(g is not None for g in goal_grads_ok)
assert goal_moved_ok > 1e-3
print("detach_(): goal MLP moved", goal_moved, "| without it:", round(goal_moved_ok, 4))
