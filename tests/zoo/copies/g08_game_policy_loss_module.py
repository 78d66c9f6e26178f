"""expect: GL002 22
dynamic: confirm
source: https://github.com/thirdratecyberpunk/lazaridou-game/blob/da3acce6e0529a766bfd35e0022573eeecf9202b/LossPolicy.py

A Lazaridou-style referential game: a speaker emits a symbol for a target, a listener picks the
target among candidates, and both are trained with REINFORCE on the shared reward. The
listener's policy loss is a small nn.Module whose forward computes
mean(log(selection_prob) * reward) and returns it wrapped as torch.tensor(result,
requires_grad=True), which copies the value into a brand-new leaf. The speaker's term, written
inline, still backpropagates, so the summed loss trains and nothing errors, but the listener's
parameters never receive a gradient. (The original module computed the value through NumPy;
here it is computed with torch ops, so the torch.tensor() copy is what drops the history.)
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class SelectionPolicyLoss(nn.Module):
    def forward(self, selection_prob, reward):
        expected = (torch.log(selection_prob) * reward).mean()
        return torch.tensor(-expected, requires_grad=True)


class Speaker(nn.Module):
    def __init__(self, feat=8, vocab=6):
        super().__init__()
        self.net = nn.Linear(feat, vocab)

    def forward(self, target):
        return Categorical(logits=self.net(target))


class Listener(nn.Module):
    def __init__(self, feat=8, vocab=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, feat)

    def forward(self, symbol, candidates):
        scores = candidates @ self.embed(symbol).unsqueeze(-1)
        return scores.squeeze(-1).softmax(-1)


torch.manual_seed(0)
speaker, listener = Speaker(), Listener()
listener_loss_fn = SelectionPolicyLoss()
opt = torch.optim.Adam(list(speaker.parameters()) + list(listener.parameters()), lr=1e-2)

batch, n_cand = 16, 3
candidates = torch.randn(batch, n_cand, 8)
target_idx = torch.randint(0, n_cand, (batch,))
target = candidates[torch.arange(batch), target_idx]

msg_dist = speaker(target)
symbol = msg_dist.sample()
probs = listener(symbol, candidates)
choice = Categorical(probs=probs).sample()
reward = (choice == target_idx).float()

speaker_loss = -(msg_dist.log_prob(symbol) * reward).mean()
chosen_prob = probs[torch.arange(batch), choice]
listener_loss = listener_loss_fn(chosen_prob, reward)

opt.zero_grad()
(speaker_loss + listener_loss).backward()
opt.step()

print("listener loss is leaf:", listener_loss.is_leaf, "grad_fn:", listener_loss.grad_fn)
assert listener_loss.is_leaf and listener_loss.grad_fn is None
assert listener.embed.weight.grad is None
assert speaker.net.weight.grad is not None
print("speaker trains, listener never does")
