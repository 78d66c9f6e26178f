"""expect: GL005 32
dynamic: confirm
source: kinds8 (kind A)

Each per-agent head ends in softmax, which saves its output; the no-op column of
that output is then overwritten by index assignment, so backward raises.
"""
import torch
import torch.nn as nn


class PolicyHead(nn.Module):
    def __init__(self, hid, n_act):
        super().__init__()
        self.fc = nn.Linear(hid, n_act)

    def forward(self, h):
        return torch.softmax(self.fc(h), dim=-1)


class MultiAgentPolicy(nn.Module):
    def __init__(self, obs_dim=6, hid=16, n_act=4, n_agents=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hid), nn.ReLU())
        self.heads = nn.ModuleList([PolicyHead(hid, n_act) for _ in range(n_agents)])

    def forward(self, obs):
        h = self.trunk(obs)
        dists = []
        for agent_id, head in enumerate(self.heads):
            pi = head(h)
            pi[..., 0] = 0.0
            dists.append(pi)
        return dists


def main():
    torch.manual_seed(0)
    policy = MultiAgentPolicy()
    obs = torch.randn(5, 6)
    actions = torch.randint(1, 4, (3, 5))
    advantages = torch.randn(3, 5)
    dists = policy(obs)
    loss = 0.0
    for k, pi in enumerate(dists):
        chosen = pi.gather(-1, actions[k][:, None]).squeeze(-1)
        loss = loss - (torch.log(chosen + 1e-8) * advantages[k]).mean()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("expected an in-place RuntimeError")
    print("OK")


if __name__ == "__main__":
    main()
