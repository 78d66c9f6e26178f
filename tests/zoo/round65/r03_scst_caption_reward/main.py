"""
expect: none
dynamic: dismiss
source: https://github.com/ruotianluo/self-critical.pytorch/issues/84

Image captioning with self-critical sequence training (SCST). The greedy baseline is
decoded under torch.no_grad(), both captions go through `.data.cpu().numpy()` to be
scored, and the reward comes back as `torch.from_numpy(reward).float()`. That looks like
the loss is rebuilt from NumPy, but the reward is supposed to be a constant in REINFORCE:
the gradient flows through the log-probabilities of the sampled words, which the sampling
pass keeps in the graph. The asserts check that the captioner's parameters receive
non-zero gradients, that the reward tensor itself needs none, and that training raises
the mean score of sampled captions.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rewards import RewardCriterion, get_self_critical_reward, caption_score  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, T, FEAT, N_IMG = 6, 4, 8, 4


class FCCaptioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.img = nn.Linear(FEAT, 16)
        self.core = nn.GRUCell(16, 32)
        self.init_h = nn.Linear(16, 32)
        self.logit = nn.Linear(32, VOCAB)

    def sample(self, fc_feats, greedy=False):
        b = fc_feats.size(0)
        h = torch.tanh(self.init_h(self.img(fc_feats)))
        it = torch.zeros(b, dtype=torch.long)
        seq, seq_logprobs = [], []
        for _ in range(T):
            h = self.core(self.embed(it), h)
            logprobs = F.log_softmax(self.logit(h), dim=1)
            if greedy:
                it = logprobs.argmax(1)
            else:
                it = torch.multinomial(logprobs.exp().detach(), 1).squeeze(1)
            seq.append(it)
            seq_logprobs.append(logprobs.gather(1, it.unsqueeze(1)).squeeze(1))
        return torch.stack(seq, 1), torch.stack(seq_logprobs, 1)


img_feats = torch.randn(N_IMG, FEAT)
img_caps = torch.randint(1, VOCAB, (N_IMG, T))

model = FCCaptioner()
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
crit = RewardCriterion()


def mean_sample_score(n=64):
    with torch.no_grad():
        idx = torch.arange(N_IMG).repeat(n)
        seq, _ = model.sample(img_feats[idx])
        return float(caption_score(seq.numpy(), img_caps[idx].numpy()).mean())


before = mean_sample_score()
for step in range(150):
    idx = torch.randint(0, N_IMG, (32,))
    fc_feats, gts = img_feats[idx], img_caps[idx]
    gen_result, sample_logprobs = model.sample(fc_feats)
    reward = get_self_critical_reward(model, fc_feats, gts, gen_result)
    reward = torch.from_numpy(reward).float()
    loss = crit(sample_logprobs, gen_result.data, reward)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert not reward.requires_grad
        assert loss.requires_grad
        grads = [p.grad for p in model.parameters()]
        assert all(g is not None for g in grads)
        assert model.logit.weight.grad.abs().sum() > 0
        assert model.img.weight.grad.abs().sum() > 0
    opt.step()
after = mean_sample_score()
assert after > before + 0.3, (before, after)
print("mean sampled-caption score %.3f -> %.3f" % (before, after))
