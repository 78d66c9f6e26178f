"""expect: none
dynamic: dismiss
source: kinds8 (kind C)

An action plan proposed by a frozen policy under no_grad is cloned into a new leaf
and refined through a frozen dynamics model; Adam gets it via a param-group dict.
"""
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    obs_dim, act_dim, horizon = 4, 2, 5
    policy = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, act_dim * horizon))
    dynamics = nn.Linear(obs_dim + act_dim, obs_dim)
    for net in (policy, dynamics):
        for w in net.parameters():
            w.requires_grad = False

    state0 = torch.randn(obs_dim)
    goal = torch.zeros(obs_dim)
    with torch.no_grad():
        proposal = policy(state0).view(horizon, act_dim)

    plan = proposal.detach().clone()
    plan.requires_grad_(True)
    act_scale = nn.Parameter(torch.ones(1))
    opt = torch.optim.Adam([
        {"params": [plan], "lr": 0.05},
        {"params": [act_scale], "lr": 0.01},
    ])

    for _ in range(4):
        opt.zero_grad()
        state = state0
        cost = 0.0
        for t in range(horizon):
            action = act_scale * torch.tanh(plan[t])
            state = dynamics(torch.cat([state, action]))
            cost = cost + ((state - goal) ** 2).sum()
        cost.backward()
        assert plan.grad is not None
        assert act_scale.grad is not None
        opt.step()
    for w in dynamics.parameters():
        assert w.grad is None
    print("OK")


if __name__ == "__main__":
    main()
