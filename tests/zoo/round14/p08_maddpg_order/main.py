"""
expect: GL005 agent.py:36
dynamic: confirm
source: https://github.com/starry-sky6688/MADDPG/issues/27

The reporter swapped the update order to match the paper (update the critic first, then
the actor) and got the in-place modification error; the maintainer explained that the
actor loss had been computed through the critic network, which the critic step then changed.
This program rebuilds that agent in agent.py: both losses are built from one forward pass,
critic_optim.step() runs, and then actor_loss.backward() walks a graph whose saved critic
weight has been bumped in place. The asserts catch a RuntimeError mentioning "inplace" and
check the original order (actor first) trains both networks.
"""
import torch
from agent import MADDPGAgent

torch.manual_seed(0)
B = 16
obs, next_obs = torch.randn(B, 12), torch.randn(B, 12)
acts, next_acts = torch.rand(B, 4) * 2 - 1, torch.rand(B, 4) * 2 - 1
reward = torch.randn(B, 1)
batch = (obs, acts, reward, next_obs, next_acts, obs[:, :6])

agent = MADDPGAgent()
raised = False
try:
    agent.learn_critic_first(batch)
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised, "expected the in-place modification error"

agent = MADDPGAgent()
actor_before = [p.detach().clone() for p in agent.actor.parameters()]
critic_before = [p.detach().clone() for p in agent.critic.parameters()]
agent.learn_actor_first(batch)
assert any(not torch.equal(a, b) for a, b in zip(actor_before, agent.actor.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(critic_before, agent.critic.parameters()))
print("ok: critic step before actor backward raises the in-place error")
