"""
expect: none
dynamic: dismiss
source: https://github.com/ruotianluo/self-critical.pytorch/issues/287

A self-critical (SCST) captioning trainer: sample captions, decode a greedy
baseline under no_grad, score both with a numpy metric, and weight the
sampled log-probabilities by the numpy reward rebuilt with from_numpy. The
round trip and the no_grad are on purpose: the reward is a constant weight
and the gradient flows through the sampled log-probs. The asserts show the
decoder gets a gradient, that it scales with the advantage, and the baseline
tensors carry no graph.
"""
import numpy as np
import torch

from scst import TinyCaptioner, scst_loss

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

model = TinyCaptioner()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
feats = torch.randn(16, 8)
refs = [np.array([1, 2, 3]) for _ in range(16)]

torch.manual_seed(1)
loss, mean_r = scst_loss(model, feats, refs)
loss.backward()
g = model.out.weight.grad.clone()
assert g.abs().sum() > 0
assert model.init_h.weight.grad.abs().sum() > 0

# doubling the loss (as doubling the advantage would) doubles the gradient
model.zero_grad()
torch.manual_seed(1)
loss2, _ = scst_loss(model, feats, refs)
(2.0 * loss2).backward()
assert torch.allclose(model.out.weight.grad, 2.0 * g, atol=1e-6)

def greedy_hits():
    with torch.no_grad():
        seq, _ = model.decode(feats, 5, greedy=True)
    return np.mean([len(set(s.tolist()) & {1, 2, 3}) / 3 for s in seq])


hits_before = greedy_hits()
rewards = []
for step in range(60):
    loss, mean_r = scst_loss(model, feats, refs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    rewards.append(mean_r)

hits = greedy_hits()
assert hits > hits_before + 0.3, (hits_before, hits)
print("ok", hits_before, hits)
