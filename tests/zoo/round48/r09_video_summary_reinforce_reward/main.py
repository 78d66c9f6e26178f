"""expect: none
dynamic: dismiss
source: https://github.com/KaiyangZhou/pytorch-vsumm-reinforce/blob/HEAD/rewards.py

Unsupervised video summarization with REINFORCE (DSN): a BiLSTM scores each frame, frames are sampled
from Bernoulli(probs), and a diversity-representativeness reward rates the sampled summary. The reward
code detaches the features and actions, edits its own similarity and distance matrices in place
(index assignment, addmm_), and the trainer accumulates the cost with `cost -=` and stores reward.item()
to update a moving-average baseline kept as a Python float. None of this cuts the trained path: the
reward is a score, the gradient flows through log_prob of the sampled actions, as the policy-gradient
estimator requires, and the in-place subtraction only touches a tensor no op saved. The asserts
check the reward carries no graph, every DSN parameter receives a gradient through log_probs, the
gradient equals the hand-written REINFORCE estimator, and training raises the reward on a fixed video.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Bernoulli

from rewards import compute_reward

torch.manual_seed(0)
torch.set_num_threads(1)


class DSN(nn.Module):
    def __init__(self, d_in=16, hid=16):
        super().__init__()
        self.rnn = nn.LSTM(d_in, hid, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * hid, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return torch.sigmoid(self.fc(h))


# a synthetic "video": 4 scenes of 12 near-duplicate frames each
centers = torch.randn(4, 16) * 2
seq = (centers.repeat_interleave(12, 0) + 0.3 * torch.randn(48, 16)).unsqueeze(0)

model = DSN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
baseline = 0.0
history = []
for epoch in range(150):
    probs = model(seq)
    cost = 0.01 * (probs.mean() - 0.5) ** 2
    m = Bernoulli(probs)
    epis_rewards = []
    terms = []
    for _ in range(5):
        actions = m.sample()
        log_probs = m.log_prob(actions)
        reward = compute_reward(seq, actions)
        assert reward.grad_fn is None and not reward.requires_grad
        terms.append((actions, reward.item()))
        cost -= log_probs.mean() * (reward - baseline)  # minimize negative expected reward
        epis_rewards.append(reward.item())
    opt.zero_grad()
    cost.backward()
    if epoch == 0:
        grads = [p.grad.clone() for p in model.parameters()]
        assert all(g.abs().sum() > 0 for g in grads)
        # same gradient from an explicit REINFORCE estimator on the same samples
        opt.zero_grad()
        probs2 = model(seq)
        est = 0.01 * (probs2.mean() - 0.5) ** 2
        d2 = Bernoulli(probs2)
        for a, r in terms:
            est = est - d2.log_prob(a).mean() * (r - baseline)
        est.backward()
        for g, p in zip(grads, model.parameters()):
            assert torch.allclose(g, p.grad, atol=1e-5)
        for g, p in zip(grads, model.parameters()):
            p.grad = g
    opt.step()
    baseline = 0.9 * baseline + 0.1 * np.mean(epis_rewards)
    history.append(np.mean(epis_rewards))

early, late = np.mean(history[:20]), np.mean(history[-20:])
assert late > early, (early, late)
print(f"mean reward {early:.3f} -> {late:.3f}")
