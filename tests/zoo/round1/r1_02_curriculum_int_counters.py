"""expect: none
dynamic: dismiss
source: https://github.com/mosaicml/composer/tree/dev/composer/algorithms/seq_length_warmup

Sequence-length warm-up in the style of a curriculum: the sequence length is a Python int doubled in place (`seq_len *= 2`) every few steps, and other integer counters (`hp += 1`, `seen += ...`) are bumped next to the tensor code. The ints only slice the batch; no tensor is edited in place and every parameter trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self, vocab=12, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = torch.randint(0, 12, (32, 16))

seq_len = 2
hp = 0
seen = 0
losses = []
for step in range(24):
    batch = data[:, :seq_len]
    logits = model(batch)
    loss = F.cross_entropy(logits.reshape(-1, 12), batch.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    seen += batch.numel()
    hp += 1
    if hp == 6 and seq_len < 16:
        seq_len *= 2
        hp = 0

print("final seq_len", seq_len, "tokens seen", seen)
print("emb grad norm", model.emb.weight.grad.norm().item())
assert model.emb.weight.grad.norm() > 0
