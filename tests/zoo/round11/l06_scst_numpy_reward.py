"""
expect: none
dynamic: dismiss
source: https://github.com/ruotianluo/self-critical.pytorch/issues/64

The question: can RewardCriterion's backward give the correct self-critical gradient, given that
the reward is computed outside the graph? The answer: the criterion takes log-softmax outputs and
weights them by -(r - b); the loss is built so its gradient is exactly the SCST policy gradient. This
program rebuilds that: rewards of sampled and greedy captions are scored in numpy (a toy CIDEr-like
overlap), turned into a tensor with torch.from_numpy and used as a constant weight on the sampled
tokens' log-probs. The asserts show the captioner's parameters get gradients and the average reward
of sampled captions rises over training.
"""
import numpy as np
import torch
import torch.nn as nn

VOCAB, LEN = 6, 5
REFERENCE = np.array([1, 2, 3, 4, 5])


def score(seqs):
    """Toy sentence-level metric: fraction of positions matching the reference caption."""
    return (seqs == REFERENCE[None, :]).mean(axis=1)


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_logits = nn.Parameter(torch.zeros(LEN, VOCAB))
        self.img_proj = nn.Linear(4, VOCAB)

    def forward(self, feats):
        return torch.log_softmax(self.pos_logits[None] + self.img_proj(feats)[:, None, :], dim=-1)


class RewardCriterion(nn.Module):
    def forward(self, logprobs, seq, reward):
        taken = logprobs.gather(2, seq.unsqueeze(2)).squeeze(2)
        return -(taken * reward).mean()


torch.manual_seed(0)
np.random.seed(0)
model = Captioner()
crit = RewardCriterion()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
feats = torch.randn(16, 4)

avg_rewards = []
for it in range(60):
    logprobs = model(feats)
    with torch.no_grad():
        sample = torch.distributions.Categorical(logits=logprobs).sample()
        greedy = logprobs.argmax(-1)
    r_sample = score(sample.numpy())
    r_greedy = score(greedy.numpy())
    advantage = np.repeat((r_sample - r_greedy)[:, None], LEN, axis=1)
    reward = torch.from_numpy(advantage).float()
    loss = crit(logprobs, sample, reward)
    opt.zero_grad()
    loss.backward()
    if it == 0:
        assert model.img_proj.weight.grad is not None
    opt.step()
    avg_rewards.append(r_sample.mean())

assert model.pos_logits.grad is not None and model.pos_logits.grad.abs().sum() > 0
assert np.mean(avg_rewards[-10:]) > np.mean(avg_rewards[:10]) + 0.3, (avg_rewards[:10], avg_rewards[-10:])
print(f"ok: numpy reward as a constant weight; sampled reward {np.mean(avg_rewards[:10]):.2f} -> {np.mean(avg_rewards[-10:]):.2f}")
