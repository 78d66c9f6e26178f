"""
expect: none
dynamic: dismiss
source: https://github.com/astariul/encode-attend-navigate-pytorch/pull/3

encode-attend-navigate-pytorch PR #3 ("Fix gradients & reproduce results", closing issue #2
"Critic not detached from policy loss"): the REINFORCE-with-critic trainer for the travelling
salesman problem used the critic's prediction inside the policy loss without stopping its
gradient, so the critic was also pushed by the policy loss; the fix detaches the critic value
(tf.stop_gradient in the original TensorFlow code) and both networks then train as intended. This
program rebuilds the fixed trainer - pointer-style actor sampling tours, critic regressing tour
length, advantage (reward - critic).detach() in the policy loss - and asserts that the detach only
removes the policy-loss path into the critic: the actor and critic both receive gradients and
move, the critic's gradient equals the critic-loss gradient alone, and tours get shorter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.embed = nn.Linear(2, d)
        self.query = nn.Linear(d, d)

    def forward(self, cities):
        b, n, _ = cities.shape
        emb = self.embed(cities)
        visited = torch.zeros(b, n, dtype=torch.bool)
        current = emb.mean(1)
        tour, log_probs = [], []
        for _ in range(n):
            scores = torch.einsum("bd,bnd->bn", self.query(current), emb) / emb.shape[-1] ** 0.5
            scores = scores.masked_fill(visited, float("-inf"))
            dist = torch.distributions.Categorical(logits=10 * torch.tanh(scores))
            idx = dist.sample()
            log_probs.append(dist.log_prob(idx))
            visited = visited.scatter(1, idx[:, None], True)
            current = emb[torch.arange(b), idx]
            tour.append(idx)
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


class Critic(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, d), nn.ReLU(), nn.Linear(d, d))
        self.out = nn.Linear(d, 1)

    def forward(self, cities):
        return self.out(self.net(cities).mean(1)).squeeze(1)


def tour_length(cities, tour):
    ordered = cities.gather(1, tour[..., None].expand(-1, -1, 2))
    return (ordered - ordered.roll(-1, 1)).norm(dim=-1).sum(1)


torch.manual_seed(0)
actor, critic = Actor(), Critic()
opt = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=3e-3)
a0, c0 = actor.query.weight.detach().clone(), critic.out.weight.detach().clone()
lengths = []
for step in range(100):
    cities = torch.rand(32, 8, 2)
    tour, log_prob = actor(cities)
    reward = tour_length(cities, tour)
    predictions = critic(cities)
    advantage = (reward - predictions).detach()
    actor_loss = (advantage * log_prob).mean()
    critic_loss = F.mse_loss(predictions, reward)
    if step == 0:
        g_critic_only = torch.autograd.grad(critic_loss, critic.out.weight, retain_graph=True)[0]
    opt.zero_grad()
    (actor_loss + critic_loss).backward()
    if step == 0:
        assert torch.allclose(critic.out.weight.grad, g_critic_only)
        assert actor.query.weight.grad is not None and actor.query.weight.grad.abs().sum() > 0
    opt.step()
    lengths.append(reward.mean().item())

assert not torch.equal(a0, actor.query.weight) and not torch.equal(c0, critic.out.weight)
assert sum(lengths[-20:]) / 20 < sum(lengths[:20]) / 20 - 0.1, (lengths[:3], lengths[-3:])
print("p15 ok: detached advantage keeps the critic out of the policy loss; both nets train")
