"""expect: none
dynamic: dismiss
source: https://github.com/rail-berkeley/rlkit/pull/109

Each network owns its optimizer (self.optimizer is created in its class in
networks.py). The trainer encodes observations once with the critic's encoder, builds
the actor loss through that encoding, calls backward(retain_graph=True) so the shared
encoder part survives, and steps the actor's optimizer before the critic loss is
backpropagated. The critic loss is built only from critic modules and stored actions, so
the in-place update of the actor's weights touches nothing its backward pass needs; the
critic's optimizer is zeroed before its own backward, so the gradients the actor loss left
on the critic are discarded. Both networks train and nothing raises.
"""
import torch
import torch.nn.functional as F

from networks import Actor, Critic


class Trainer:
    def __init__(self, obs_dim=5, act_dim=2):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)

    def update(self, obs, act, ret):
        feat = self.critic.encode(obs)
        actor_loss = -self.critic.score(feat, self.actor(obs)).mean()
        self.actor.optimizer.zero_grad()
        actor_loss.backward(retain_graph=True)
        self.actor.optimizer.step()

        q = self.critic.score(feat, act)
        critic_loss = F.mse_loss(q, ret)
        self.critic.optimizer.zero_grad()
        critic_loss.backward()
        self.critic.optimizer.step()
        return actor_loss.item(), critic_loss.item()


torch.manual_seed(21)
trainer = Trainer()
a0 = trainer.actor.fc1.weight.detach().clone()
c0 = trainer.critic.obs_layer.weight.detach().clone()
for it in range(4):
    obs = torch.randn(16, 5)
    act = torch.rand(16, 2) * 2 - 1
    ret = torch.randn(16, 1)
    print("iter", it, trainer.update(obs, act, ret))

assert trainer.actor.fc1.weight.grad is not None
assert trainer.critic.obs_layer.weight.grad is not None
assert not torch.equal(a0, trainer.actor.fc1.weight)
assert not torch.equal(c0, trainer.critic.obs_layer.weight)
print("actor and critic both trained with their own optimizers")
