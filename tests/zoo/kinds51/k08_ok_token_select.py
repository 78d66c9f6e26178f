"""
expect: none
dynamic: dismiss
source: kinds check 51, kind 4

Token-level loss for a tagger: per-token log-likelihoods are selected with a
padding mask, then a clone of the mask is edited in place (dropping the first
special token) for a statistic. The saved mask is untouched, so backward works
and matches a run without the edit.
"""
import torch
import torch.nn as nn

torch.manual_seed(7)

tagger = nn.Linear(12, 9)
feats = torch.randn(3, 7, 12)
gold = torch.randint(0, 9, (3, 7))
lengths = torch.tensor([7, 4, 5])
valid = torch.arange(7)[None, :] < lengths[:, None]

logp = tagger(feats).log_softmax(-1).gather(-1, gold.unsqueeze(-1)).squeeze(-1)
picked = logp[valid]
loss = -picked.mean()
content = valid.clone()
content[:, 0] = False
n_content = int(content.sum())
loss.backward()
g = tagger.weight.grad.clone()

tagger.zero_grad()
ref = -tagger(feats).log_softmax(-1).gather(-1, gold.unsqueeze(-1)).squeeze(-1)[valid].mean()
ref.backward()
assert torch.allclose(g, tagger.weight.grad)
assert n_content == 13
print("ok: backward fine, content tokens", n_content)
