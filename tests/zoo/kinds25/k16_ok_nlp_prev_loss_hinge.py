"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 4

Character language model with a "no regression" penalty: the previous iteration's loss is
carried over detached and the current loss pays an extra 0.5 * relu(loss - prev_loss) when it
got worse. The carried value is only a threshold subtracted from the attached current loss, so
the extra term still has the current loss's gradient; the model trains normally.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

V, B, T = 30, 16, 20


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.LSTM(32, 48, batch_first=True)
        self.out = nn.Linear(48, V)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


model = CharLM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
corpus = (torch.arange(4000) * 7 + torch.randint(0, 3, (4000,))) % V

prev_loss = None
losses = []
penalised = 0
for it in range(60):
    starts = torch.randint(0, corpus.numel() - T - 1, (B,))
    text = torch.stack([corpus[s:s + T + 1] for s in starts])
    logits = model(text[:, :-1])
    ce = F.cross_entropy(logits.reshape(-1, V), text[:, 1:].reshape(-1))
    loss = ce
    if prev_loss is not None:
        loss = ce + 0.5 * torch.relu(ce - prev_loss)
        penalised += int(ce.item() > prev_loss.item())
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
    prev_loss = ce.detach()
    losses.append(ce.item())

assert losses[-1] < losses[0] * 0.7, (losses[0], losses[-1])
assert penalised > 0, "the hinge was active on some steps"
print("ok: ce", round(losses[0], 3), "->", round(losses[-1], 3), "penalised steps", penalised)
