"""
expect: none
dynamic: dismiss
source: kind 2

Self-critical training of a tiny frame-level speech recogniser: sampled and
greedy transcripts are pulled out with .detach().cpu().numpy(), scored in
Python with an edit-distance reward, and the advantage is copied back with
torch.tensor(...). The advantage only weighs the attached log-probabilities
of the sampled tokens (REINFORCE), so the recogniser trains: the asserts show
non-zero gradients and a large rise in greedy reward.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


def edit_distance(a, b):
    d = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = d[j]
            d[j] = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev = cur
    return d[-1]


def rewards(hyps, refs):
    return np.array([1.0 - edit_distance(h, r) / len(r) for h, r in zip(hyps, refs)])


class FrameRecogniser(nn.Module):
    def __init__(self, n_mels=8, vocab=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_mels, 32), nn.ReLU(), nn.Linear(32, vocab))

    def forward(self, mels):
        return self.net(mels)  # (B, T, vocab)


def scst_step(model, opt, mels, refs):
    dist = Categorical(logits=model(mels))
    sampled = dist.sample()
    with torch.no_grad():
        greedy = model(mels).argmax(-1)
    r_s = rewards(sampled.detach().cpu().numpy(), refs)
    r_g = rewards(greedy.cpu().numpy(), refs)
    advantage = torch.tensor(r_s - r_g, dtype=torch.float32)
    loss = -(advantage * dist.log_prob(sampled).sum(-1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return r_g.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    proto = torch.randn(6, 8) * 2  # one acoustic prototype per token
    model = FrameRecogniser()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    history = []
    for _ in range(150):
        refs = np.random.randint(0, 6, size=(32, 5))
        mels = proto[torch.from_numpy(refs)] + 0.3 * torch.randn(32, 5, 8)
        history.append(scst_step(model, opt, mels, refs))
        if len(history) == 1:
            assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    assert np.mean(history[-10:]) > np.mean(history[:10]) + 0.3, (history[:3], history[-3:])
    print("ok: greedy reward", round(np.mean(history[:10]), 2), "->", round(np.mean(history[-10:]), 2))
