"""expect: none
dynamic: none
source: https://github.com/ghliu/pytorch-ddpg/pull/4

pytorch-ddpg built the critic target from the target networks with volatile=True and then
reset next_q_values.volatile = False; the PR replaces that with torch.no_grad(), and a
commenter asked whether the target networks were being trained through the critic loss.
They are not meant to be: targets are a deliberate stop-gradient, the target networks
only follow the learned ones through soft_update, while actor and critic train normally.
"""
import numpy as np
import torch

from ddpg import DDPG


class ReplayBuffer:
    def __init__(self, nb_states, nb_actions, size=256, seed=0):
        rng = np.random.RandomState(seed)
        self.s = rng.randn(size, nb_states).astype(np.float32)
        self.a = rng.uniform(-1, 1, (size, nb_actions)).astype(np.float32)
        self.r = rng.randn(size, 1).astype(np.float32)
        self.s2 = rng.randn(size, nb_states).astype(np.float32)
        self.not_done = (rng.rand(size, 1) > 0.05)
        self.rng = rng

    def sample_and_split(self, batch_size):
        idx = self.rng.randint(0, len(self.s), batch_size)
        return self.s[idx], self.a[idx], self.r[idx], self.s2[idx], self.not_done[idx]


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = DDPG(nb_states=3, nb_actions=1)
    memory = ReplayBuffer(3, 1)
    actor_w0 = agent.actor.net[0].weight.detach().clone()
    critic_w0 = agent.critic.fc1.weight.detach().clone()
    target_w0 = agent.critic_target.fc1.weight.detach().clone()
    for _ in range(5):
        agent.update_policy(memory.sample_and_split(32))
    assert not torch.equal(actor_w0, agent.actor.net[0].weight)
    assert not torch.equal(critic_w0, agent.critic.fc1.weight)
    assert agent.actor.net[0].weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in agent.critic_target.parameters())
    assert not torch.equal(target_w0, agent.critic_target.fc1.weight)   # moved by soft_update
    print("actor and critic train; target networks track them without gradients")
