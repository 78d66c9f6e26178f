"""
expect: none
dynamic: dismiss
source: https://github.com/shariqiqbal2810/maddpg-pytorch/issues/43

The issue worries that this MADDPG implementation updates the critic before the actor although
"the actor_loss is calculated through the critic network". In this code that is fine: the
critic loss is backpropagated and `critic_optimizer.step()` runs, and only then is the policy
loss built by a fresh forward pass (new actions, new critic evaluation), so no backward ever
runs through a graph whose saved weights the critic step modified in place (the pattern that
breaks in other repos on PyTorch >= 1.5). This program rebuilds the update (agents.py holds the
agent, networks and soft update) for three agents on random transitions; the asserts show every
update runs, the critic and the policy of each agent both move, and the critic's TD loss falls.
"""
import torch
import torch.nn.functional as F
from agents import DDPGAgent, soft_update

torch.manual_seed(0)
N, OBS, ACT, B, GAMMA = 3, 5, 2, 32, 0.95


class MADDPG:
    def __init__(self):
        self.agents = [DDPGAgent(OBS, ACT, OBS + N * ACT) for _ in range(N)]

    def update(self, sample, agent_i):
        obs, acs, rews, next_obs = sample
        agent = self.agents[agent_i]
        agent.critic_optimizer.zero_grad()
        with torch.no_grad():
            trgt_acs = [a.target_policy(o) for a, o in zip(self.agents, next_obs)]
            target_value = rews[agent_i][:, None] + GAMMA * agent.target_critic(
                torch.cat((next_obs[agent_i], *trgt_acs), dim=1))
        actual_value = agent.critic(torch.cat((obs[agent_i], *acs), dim=1))
        vf_loss = F.mse_loss(actual_value, target_value)
        vf_loss.backward()
        agent.critic_optimizer.step()

        agent.policy_optimizer.zero_grad()
        pol_acs = [a.policy(o) for a, o in zip(self.agents, obs)]
        pol_loss = -agent.critic(torch.cat((obs[agent_i], *pol_acs), dim=1)).mean()
        pol_loss.backward()
        agent.policy_optimizer.step()
        return vf_loss.item()

    def update_all_targets(self, tau=0.01):
        for a in self.agents:
            soft_update(a.target_critic, a.critic, tau)
            soft_update(a.target_policy, a.policy, tau)


maddpg = MADDPG()
fixed_batch = ([torch.randn(B, OBS) for _ in range(N)], [torch.rand(B, ACT) * 2 - 1 for _ in range(N)],
               [torch.randn(B) for _ in range(N)], [torch.randn(B, OBS) for _ in range(N)])
before = [(a.policy[0].weight.detach().clone(), a.critic[0].weight.detach().clone()) for a in maddpg.agents]
first, last = None, None
for it in range(30):
    losses = [maddpg.update(fixed_batch, i) for i in range(N)]
    maddpg.update_all_targets()
    first = first if first is not None else sum(losses)
    last = sum(losses)

for (p0, c0), a in zip(before, maddpg.agents):
    assert not torch.equal(p0, a.policy[0].weight)
    assert not torch.equal(c0, a.critic[0].weight)
assert last < first
print(f"p20 ok: critic-then-actor with a fresh forward trains both (TD loss {first:.3f} -> {last:.3f})")
