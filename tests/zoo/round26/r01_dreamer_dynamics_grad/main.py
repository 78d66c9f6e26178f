"""
expect: GL001 actor_critic.py:42
dynamic: confirm
source: https://github.com/jurgisp/pydreamer/issues/12

A pydreamer user found that with actor_grad="dynamics" the actor loss is just
-value_target, but the value target (target critic + GAE / lambda returns) is built
inside a torch.no_grad() block that was written for the REINFORCE mode. Here the
actor acts in imagination through a learned world model; ActorCritic.targets()
(other file) computes the lambda returns under no_grad, so the dynamics-backprop
objective carries no gradient and the actor only feels the entropy bonus. The asserts
show the actor gradient equals the entropy-only gradient, and that computing the
targets with grad (target-critic weights still frozen) gives a real gradient.
"""
import torch
import torch.nn as nn

from actor_critic import ActorCritic, mlp

torch.manual_seed(0)
torch.set_num_threads(1)
FEAT, ACT, H, B = 8, 2, 6, 16


class WorldModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.dynamics = mlp(FEAT + ACT, FEAT)
        self.reward = mlp(FEAT, 1)

    def step(self, feat, action):
        return feat + torch.tanh(self.dynamics(torch.cat([feat, action], -1)))


def imagine(world, agent, start):
    feats, rewards, logps, ents = [start], [], [], []
    feat = start
    for _ in range(H):
        action, logp, ent = agent.act(feat.detach())
        feat = world.step(feat, action)
        feats.append(feat)
        rewards.append(world.reward(feat).squeeze(-1))
        logps.append(logp)
        ents.append(ent)
    return torch.stack(feats), torch.stack(rewards), torch.stack(logps), torch.stack(ents)


class FixedActorCritic(ActorCritic):
    def targets(self, feats, rewards):
        value_t = self.critic_target(feats).squeeze(-1)   # params frozen, path kept
        target = self.lambda_return(rewards, value_t)
        return target, (target - value_t[:-1]).detach()


def actor_grads(agent, world, start, seed, entropy_only=False):
    agent.zero_grad()
    torch.manual_seed(seed)
    feats, rewards, logps, ents = imagine(world, agent, start)
    loss_actor, loss_critic = agent.training_step(feats, rewards, logps, ents)
    if entropy_only:
        loss_actor = -agent.entropy_weight * ents.mean()
    loss_actor.backward()
    return [p.grad.clone() for p in agent.actor.parameters()], loss_critic


world = WorldModel()
for p in world.parameters():
    p.requires_grad_(False)
agent = ActorCritic(FEAT, ACT)
opt = torch.optim.Adam(agent.actor.parameters(), lr=1e-3)
start = torch.randn(B, FEAT)

for it in range(5):  # training runs without any error
    g, _ = actor_grads(agent, world, start, seed=it)
    opt.step()

g_full, loss_critic = actor_grads(agent, world, start, seed=123)
g_ent, _ = actor_grads(agent, world, start, seed=123, entropy_only=True)
assert loss_critic.requires_grad
for a, b in zip(g_full, g_ent):
    assert torch.allclose(a, b), "dynamics term should add nothing in the buggy agent"

fixed = FixedActorCritic(FEAT, ACT)
fixed.load_state_dict(agent.state_dict())
g_fix, _ = actor_grads(fixed, world, start, seed=123)
diff = sum((a - b).abs().sum().item() for a, b in zip(g_fix, g_ent))
assert diff > 1e-4, diff
print("ok: dynamics-backprop term gives zero actor gradient; fixed diff", round(diff, 5))
