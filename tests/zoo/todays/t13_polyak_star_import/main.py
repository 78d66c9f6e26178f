"""expect: none
dynamic: dismiss
source: https://github.com/ShangtongZhang/DeepRL/blob/master/deep_rl/agent/DDPG_agent.py

A DDPG-style agent whose base class, networks and torch imports all come from base.py
through `from base import *`. After each learning step the target networks are moved
toward the online ones with `tp.detach_(); tp.copy_(tp * (1 - tau) + p * tau)`. The
detach_ drops the history left on the target parameter by the previous copy_, and the
target outputs are detached before they enter the critic's TD target, so no gradient is
meant to reach the targets; the online actor and critic are trained as usual and the
targets drift toward them.
"""
from base import *


class SoftSyncAgent(AgentBase):
    def blend(self, target_net, online_net):
        tau = self.mix
        for tp, p in zip(target_net.parameters(), online_net.parameters()):
            tp.detach_()
            tp.copy_(tp * (1 - tau) + p * tau)

    def learn(self):
        obs, act, rew, nxt = self.sample_batch()
        next_q = self.critic_tgt(nxt, self.actor_tgt(nxt)).detach()
        td_target = rew + self.gamma * next_q
        critic_loss = F.mse_loss(self.critic(obs, act), td_target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        actor_loss = -self.critic(obs, self.actor(obs)).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        self.blend(self.critic_tgt, self.critic)
        self.blend(self.actor_tgt, self.actor)
        return critic_loss.item(), actor_loss.item()


torch.manual_seed(12)
agent = SoftSyncAgent()
actor_w0 = agent.actor.body[0].weight.detach().clone()
target_w0 = agent.critic_tgt.body[0].weight.detach().clone()
for step in range(5):
    print("step", step, agent.learn())

assert all(p.grad is not None for p in agent.critic.parameters())
assert all(p.grad is not None for p in agent.actor.parameters())
assert not torch.equal(actor_w0, agent.actor.body[0].weight)
target_w = agent.critic_tgt.body[0].weight.detach()
online_w = agent.critic.body[0].weight.detach()
assert not torch.equal(target_w0, target_w), "target did not follow"
assert not torch.equal(target_w, online_w), "soft update should lag behind"
print("online nets trained; targets follow by soft update")
