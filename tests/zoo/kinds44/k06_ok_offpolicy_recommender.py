"""
expect: none
dynamic: dismiss
source: kinds check 44, kind 3

A contextual-bandit recommender learner trained from a logged epsilon-greedy policy.
`act()` clamps and temperature-scales the scorer network's logits with tensor ops,
samples an item, and stores the Categorical log-probability in `self.log_prob`; it also
takes the probabilities out with `.detach().numpy()` to compute a clipped importance
weight in NumPy and wraps it with `torch.tensor`, but that number only weights the
attached log-probability term of the same scorer. `learn()` adds that weighted term to
the reward model's regression loss under one optimizer holding both networks. The
asserts check that both networks get non-zero gradients and change, and that the
scorer's probability of each context's best item rises over training.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_ITEMS, CTX_DIM = 6, 5


class ItemScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CTX_DIM, 32), nn.ReLU(), nn.Linear(32, N_ITEMS))

    def forward(self, ctx):
        return self.net(ctx)


class RewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(CTX_DIM, N_ITEMS)

    def forward(self, ctx):
        return self.net(ctx)


class OffPolicyRecommender:
    def __init__(self, temperature=0.7, logit_clip=6.0, max_weight=5.0, epsilon=0.3, lr=1e-2):
        self.scorer = ItemScorer()
        self.reward_model = RewardModel()
        self.temperature = temperature
        self.logit_clip = logit_clip
        self.max_weight = max_weight
        self.epsilon = epsilon
        self.optimizer = torch.optim.Adam(
            list(self.scorer.parameters()) + list(self.reward_model.parameters()), lr=lr
        )

    def act(self, ctx, logged_items, logged_probs):
        logits = self.scorer(ctx)
        scaled = torch.clamp(logits, -self.logit_clip, self.logit_clip) / self.temperature
        dist = Categorical(logits=scaled)
        items = torch.as_tensor(logged_items)
        probs_np = dist.probs.detach().numpy()
        ratio = probs_np[np.arange(len(logged_items)), logged_items] / logged_probs
        self.iw = torch.tensor(np.clip(ratio, 0.0, self.max_weight), dtype=torch.float32)
        self.log_prob = dist.log_prob(items)
        self.ctx, self.items = ctx, items
        return probs_np

    def learn(self, rewards):
        rewards = torch.as_tensor(rewards, dtype=torch.float32)
        pred = self.reward_model(self.ctx).gather(1, self.items[:, None]).squeeze(1)
        advantage = rewards - pred.detach()
        policy_loss = -(self.iw * advantage * self.log_prob).mean()
        model_loss = F.mse_loss(pred, rewards)
        loss = policy_loss + model_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.grad_norms = (
            sum(p.grad.abs().sum().item() for p in self.scorer.parameters()),
            sum(p.grad.abs().sum().item() for p in self.reward_model.parameters()),
        )
        self.optimizer.step()
        return loss.item()


def best_item_prob(agent, ctx, best):
    with torch.no_grad():
        p = F.softmax(agent.scorer(ctx) / agent.temperature, dim=-1)
    return p[torch.arange(len(best)), best].mean().item()


if __name__ == "__main__":
    rng = np.random.default_rng(6)
    torch.manual_seed(6)
    true_w = rng.normal(size=(CTX_DIM, N_ITEMS)).astype(np.float32)
    agent = OffPolicyRecommender()
    scorer_before = [p.detach().clone() for p in agent.scorer.parameters()]
    model_before = [p.detach().clone() for p in agent.reward_model.parameters()]

    eval_ctx = rng.normal(size=(256, CTX_DIM)).astype(np.float32)
    eval_best = torch.as_tensor((eval_ctx @ true_w).argmax(1))
    eval_ctx = torch.from_numpy(eval_ctx)
    start = best_item_prob(agent, eval_ctx, eval_best)

    for step in range(300):
        ctx_np = rng.normal(size=(64, CTX_DIM)).astype(np.float32)
        expected = ctx_np @ true_w
        greedy = expected.argmax(1)
        explore = rng.random(64) < agent.epsilon
        items = np.where(explore, rng.integers(0, N_ITEMS, 64), greedy)
        logged_p = np.where(items == greedy, 1 - agent.epsilon + agent.epsilon / N_ITEMS,
                            agent.epsilon / N_ITEMS)
        rewards = expected[np.arange(64), items] + 0.1 * rng.normal(size=64)
        agent.act(torch.from_numpy(ctx_np), items, logged_p)
        agent.learn(rewards)
        assert agent.grad_norms[0] > 0 and agent.grad_norms[1] > 0

    end = best_item_prob(agent, eval_ctx, eval_best)
    assert any(not torch.equal(a, p) for a, p in zip(scorer_before, agent.scorer.parameters()))
    assert any(not torch.equal(a, p) for a, p in zip(model_before, agent.reward_model.parameters()))
    assert end > start + 0.1
    print(f"best-item probability {start:.2f} -> {end:.2f}")
