"""
expect: none
dynamic: dismiss
source: https://github.com/xuehy/pytorch-maddpg/blob/b7c1acf027a64a492eee6ab1c304ed3b8e69b5c4/MADDPG.py

A MADDPG learner laid out like the repository: actions are sampled with graph history but stored in the
replay memory through .data, the target Q is built by index-assigning into a zeros tensor and then
detached, the actor update clones the replayed joint action and overwrites agent i's slot in place with
the live actor output, and target networks are soft-updated through .data.copy_. Each of these looks
like a cut or an in-place edit, but none cuts a path that should train or edits a tensor saved for
backward: the clone is not saved by anything before the index assignment, which itself records a
CopySlices node so the critic's gradient flows into actor i. The asserts check that every actor and critic
gets a gradient and moves, that only agent i's actor is reached by its own actor loss, and that the
target networks follow the online ones.
"""
import random

import torch

from maddpg import MADDPG, Experience

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(1)

n_agents, dim_obs, dim_act = 2, 6, 2
learner = MADDPG(n_agents, dim_obs, dim_act, batch_size=16)

obs = torch.randn(n_agents, dim_obs)
for t in range(64):
    action = learner.select_action(obs).data
    next_obs = torch.randn(n_agents, dim_obs) if t % 10 != 9 else None
    reward = -action.pow(2).sum(dim=1)
    learner.memory.append(Experience(obs.data, action, next_obs, reward))
    obs = next_obs if next_obs is not None else torch.randn(n_agents, dim_obs)

assert all(not e.actions.requires_grad for e in learner.memory)

actor_before = [a.fc1.weight.detach().clone() for a in learner.actors]
critic_before = [c.fc3.weight.detach().clone() for c in learner.critics]
target_before = learner.actors_target[0].fc1.weight.detach().clone()
for _ in range(3):
    c_loss, a_loss = learner.update_policy()

for i in range(n_agents):
    assert learner.actors[i].fc1.weight.grad is not None
    assert learner.actors[i].fc1.weight.grad.abs().sum() > 0
    assert not torch.equal(learner.actors[i].fc1.weight, actor_before[i])
    assert not torch.equal(learner.critics[i].fc3.weight, critic_before[i])
assert not torch.equal(learner.actors_target[0].fc1.weight, target_before)

# The actor loss of agent 0 reaches actor 0 only, through the in-place slot assignment.
for a in learner.actors:
    a.zero_grad()
batch = Experience(*zip(*learner.memory[:16]))
states, actions = torch.stack(batch.states), torch.stack(batch.actions)
ac = actions.clone()
ac[:, 0, :] = learner.actors[0](states[:, 0, :])
(-learner.critics[0](states.view(16, -1), ac.view(16, -1)).mean()).backward()
assert learner.actors[0].fc1.weight.grad.abs().sum() > 0
assert learner.actors[1].fc1.weight.grad is None or learner.actors[1].fc1.weight.grad.abs().sum() == 0
print("critic losses", [round(x, 3) for x in c_loss], "actor losses", [round(x, 3) for x in a_loss])
