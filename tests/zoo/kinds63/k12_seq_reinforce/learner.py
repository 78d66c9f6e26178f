import torch
import torch.nn as nn


class TokenPolicy(nn.Module):
    def __init__(self, vocab=6, length=5, dim=32):
        super().__init__()
        self.vocab, self.length = vocab, length
        self.tok = nn.Embedding(vocab + 1, dim)
        self.pos = nn.Embedding(length, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, vocab))

    def sample(self, batch):
        prev = torch.full((batch,), self.vocab, dtype=torch.long)
        tokens, logps = [], []
        for i in range(self.length):
            logits = self.mlp(self.tok(prev) + self.pos.weight[i])
            dist = torch.distributions.Categorical(logits=logits)
            prev = dist.sample()
            tokens.append(prev)
            logps.append(dist.log_prob(prev))
        return torch.stack(tokens, 1), torch.stack(logps, 1).sum(1)


class ReinforceLearner:
    """Policy-gradient fine-tuning with a running-average reward baseline."""

    def __init__(self, policy, reward_fn, lr=2e-2, window=50):
        self.policy, self.reward_fn = policy, reward_fn
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr)
        self.window = window
        self.mean_rewards = []

    def update(self, batch=64):
        tokens, logp = self.policy.sample(batch)
        reward = self.reward_fn(tokens)
        self.mean_rewards.append(reward.mean().item())
        recent = self.mean_rewards[-self.window:]
        baseline = sum(recent) / len(recent)
        loss = -((reward - baseline) * logp).mean()
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()
        return reward.mean().item()
