"""expect: GL005 learner.py:25
dynamic: confirm
source: https://github.com/philtabor/Multi-Agent-Deep-Deterministic-Policy-Gradients/issues/2

A two-agent MADDPG update split the way the linked project lays it out: agents.py builds each agent's actor, centralised
critic, target copies and optimizers; learner.py builds the joint action of all current actors once, then for each
agent takes a critic step and an actor step, with `actor_loss.backward(retain_graph=True)` so the shared joint-action
graph can be reused by the next agent. But agent 0's `actor_opt.step()` rewrites agent 0's actor weights in place,
and those weights are saved inside the joint-action graph that agent 1's actor loss then backpropagates through, so
the second backward raises "modified by an inplace operation". The linked issue reports this error from the same
learn() loop under PyTorch >= 1.5 (its traceback stops at a critic backward that, in that code, also ran through
networks already updated in place earlier in the loop; the repair posted in the thread computes the targets under
no_grad, as here). The asserts catch the error, then run the usual repair (recompute the joint action per agent with
the other agents' actions detached) and check that several updates run and every actor and critic moves.
"""
import torch
import torch.nn.functional as F

from agents import Agent
from learner import learn

torch.manual_seed(0)
torch.set_num_threads(1)

N, OBS, ACT, B = 2, 4, 2, 32
STATE = N * OBS


def sample_batch():
    obs = [torch.randn(B, OBS) for _ in range(N)]
    next_obs = [torch.randn(B, OBS) for _ in range(N)]
    actions = [torch.rand(B, ACT) * 2 - 1 for _ in range(N)]
    rewards = torch.randn(B, N)
    return obs, torch.cat(obs, 1), actions, rewards, next_obs, torch.cat(next_obs, 1)


def learn_fixed(agents, batch, gamma=0.95):
    obs, state, actions, rewards, next_obs, next_state = batch
    with torch.no_grad():
        next_joint = torch.cat([ag.target_actor(o) for ag, o in zip(agents, next_obs)], dim=1)
    old_joint = torch.cat(actions, dim=1)
    for i, ag in enumerate(agents):
        with torch.no_grad():
            target = rewards[:, i] + gamma * ag.target_critic(next_state, next_joint).squeeze(-1)
        critic_loss = F.mse_loss(ag.critic(state, old_joint).squeeze(-1), target)
        ag.critic_opt.zero_grad()
        critic_loss.backward()
        ag.critic_opt.step()

        parts = [other.actor(o) if j == i else other.actor(o).detach() for j, (other, o) in enumerate(zip(agents, obs))]
        actor_loss = -ag.critic(state, torch.cat(parts, dim=1)).mean()
        ag.actor_opt.zero_grad()
        actor_loss.backward()
        ag.actor_opt.step()


def snapshot(agents):
    return [[p.clone() for p in list(ag.actor.parameters()) + list(ag.critic.parameters())] for ag in agents]


agents = [Agent(OBS, ACT, STATE, N * ACT) for _ in range(N)]
try:
    learn(agents, sample_batch())
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

torch.manual_seed(0)
agents = [Agent(OBS, ACT, STATE, N * ACT) for _ in range(N)]
before = snapshot(agents)
for _ in range(3):
    learn_fixed(agents, sample_batch())
after = snapshot(agents)
for b_agent, a_agent in zip(before, after):
    assert all(not torch.equal(b, a) for b, a in zip(b_agent, a_agent))
print("shared joint-action graph: second backward raised; per-agent recompute: all actors and critics updated")
