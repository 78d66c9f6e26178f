"""
expect: GL005 74
dynamic: confirm
source: none, invented

A MADDPG-style update for three cooperating agents that share one centralised critic. For every agent the
policy objective -Q(joint_obs, joint_action with that agent's own action) is computed through the critic and
kept in a dict. The critic is then regressed onto the returns with its own backward and Adam step, and only
afterwards does the loop backpropagate each kept policy objective into its actor. The kept graphs saved the
critic's weights, which the Adam step has just overwritten in place, so the first policy backward fails with
"modified by an inplace operation" and no actor ever trains. The asserts catch that error and check the actors
are untouched; the second function, which backpropagates the summed policy objectives before the critic steps,
trains both the actors and the critic.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_AGENTS = 3
OBS_DIM = 6
ACT_DIM = 2


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.ReLU(), nn.Linear(32, ACT_DIM), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class CentralCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Sequential(
            nn.Linear(N_AGENTS * (OBS_DIM + ACT_DIM), 64), nn.ReLU(),
            nn.Linear(64, 64), nn.ReLU(),
            nn.Linear(64, 1),
        )

    def forward(self, joint_obs, joint_act):
        return self.q(torch.cat([joint_obs, joint_act], dim=-1))


def sample_batch(batch_size=64):
    obs = torch.randn(batch_size, N_AGENTS, OBS_DIM)
    act = torch.rand(batch_size, N_AGENTS, ACT_DIM) * 2 - 1
    # team reward: every agent should match a squashed slice of its own observation
    ret = -(act - obs[..., :ACT_DIM].tanh()).pow(2).sum(dim=(1, 2)).unsqueeze(-1)
    return obs, act, ret


def joint_with(act, i, own_action):
    cols = [own_action if j == i else act[:, j] for j in range(N_AGENTS)]
    return torch.stack(cols, dim=1).flatten(1)


def maddpg_update(actors, critic, actor_opts, critic_opt, batch):
    obs, act, ret = batch
    joint_obs = obs.flatten(1)

    policy_objectives = {}
    for i, actor in enumerate(actors):
        q_i = critic(joint_obs, joint_with(act, i, actor(obs[:, i])))
        policy_objectives[f"agent_{i}"] = -q_i.mean()

    critic_loss = F.mse_loss(critic(joint_obs, act.flatten(1)), ret)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

    for i, (name, objective) in enumerate(policy_objectives.items()):
        actor_opts[i].zero_grad()
        objective.backward()
        actor_opts[i].step()
    return critic_loss.item()


def maddpg_update_policy_first(actors, critic, actor_opts, critic_opt, batch):
    obs, act, ret = batch
    joint_obs = obs.flatten(1)

    policy_objectives = {}
    for i, actor in enumerate(actors):
        q_i = critic(joint_obs, joint_with(act, i, actor(obs[:, i])))
        policy_objectives[f"agent_{i}"] = -q_i.mean()

    for opt in actor_opts:
        opt.zero_grad()
    sum(policy_objectives.values()).backward()
    for opt in actor_opts:
        opt.step()

    critic_loss = F.mse_loss(critic(joint_obs, act.flatten(1)), ret)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    return critic_loss.item()


def build():
    torch.manual_seed(0)
    actors = [Actor() for _ in range(N_AGENTS)]
    critic = CentralCritic()
    actor_opts = [torch.optim.Adam(a.parameters(), lr=1e-3) for a in actors]
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    return actors, critic, actor_opts, critic_opt


def main():
    actors, critic, actor_opts, critic_opt = build()
    start = [a.net[0].weight.detach().clone() for a in actors]
    try:
        maddpg_update(actors, critic, actor_opts, critic_opt, sample_batch())
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    assert all(torch.equal(a.net[0].weight, w0) for a, w0 in zip(actors, start))

    actors, critic, actor_opts, critic_opt = build()
    start = [a.net[0].weight.detach().clone() for a in actors]
    critic_start = critic.q[0].weight.detach().clone()
    losses = [maddpg_update_policy_first(actors, critic, actor_opts, critic_opt, sample_batch())
              for _ in range(200)]
    assert all(not torch.equal(a.net[0].weight, w0) for a, w0 in zip(actors, start))
    assert not torch.equal(critic.q[0].weight, critic_start)
    assert sum(losses[-20:]) < sum(losses[:20])
    print("k01: policy-first update trains actors and critic")


if __name__ == "__main__":
    main()
