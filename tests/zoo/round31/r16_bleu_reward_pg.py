"""
expect: none
dynamic: dismiss
source: https://github.com/laihuiyuan/pre-trained-formality-transfer/issues/7

A user asked how the BLEU-based reward loss can train the model when the BLEU score comes
from NLTK's sentence_bleu, which has no gradient. The author pointed to the policy-gradient
trick: the score is only a weight on the log-probabilities of the sampled tokens. Here a
tiny decoder samples tokens, a pure-Python BLEU-like score is computed from .tolist(), and
the scores are rebuilt with torch.tensor as constant rewards multiplying -log p. That is
correct. The asserts show the decoder gets gradients, a zero reward gives zero gradient,
and training raises the reward of the sampled sequences.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
V, L = 6, 5


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRUCell(16, 16)
        self.out = nn.Linear(16, V)

    def sample(self, batch):
        h = torch.zeros(batch, 16)
        tok = torch.zeros(batch, dtype=torch.long)
        toks, logps = [], []
        for _ in range(L):
            h = self.rnn(self.emb(tok), h)
            dist = torch.distributions.Categorical(logits=self.out(h))
            tok = dist.sample()
            toks.append(tok)
            logps.append(dist.log_prob(tok))
        return torch.stack(toks, 1), torch.stack(logps, 1)


def unigram_overlap(hyp, ref):
    return sum(1 for a, b in zip(hyp, ref) if a == b) / len(ref)


class RewardLoss:
    def __init__(self, ref):
        self.ref = ref

    def __call__(self, toks, logps, scale=1.0):
        scores = [unigram_overlap(h, self.ref) for h in toks.tolist()]
        reward = torch.tensor(scores) * scale
        baseline = reward.mean()
        return -((reward - baseline).unsqueeze(1) * logps).sum(1).mean(), reward.mean().item()


dec = TinyDecoder()
crit = RewardLoss(ref=[1, 2, 3, 4, 5])
opt = torch.optim.Adam(dec.parameters(), lr=0.05)

toks, logps = dec.sample(64)
loss, _ = crit(toks, logps, scale=0.0)
loss.backward()
assert dec.out.weight.grad.abs().sum() == 0
dec.zero_grad()

rewards = []
for step in range(60):
    toks, logps = dec.sample(64)
    loss, r = crit(toks, logps)
    opt.zero_grad()
    loss.backward()
    assert dec.out.weight.grad.abs().sum() > 0
    opt.step()
    rewards.append(r)

assert sum(rewards[-10:]) / 10 > sum(rewards[:10]) / 10 + 0.1
print("ok: reward weights train the decoder", rewards[0], rewards[-1])
