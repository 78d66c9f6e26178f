"""
expect: none
dynamic: dismiss
source: https://github.com/1666sApple/Transformer-based-natural-machine-translation/blob/7b4b908c76500dfd3ec4b4743268e8e0cae6d6db/model/BahdanauAttentionQKV.py

GRU encoder-decoder for a toy reversal task with additive attention. Padded
source positions are blanked by writing -inf into the attention energies
through .data with an in-place masked_fill_, which autograd does not see.
Here that is harmless: the energies are the output of a Linear layer, no
recorded operation has saved them, and the softmax that follows is recorded
after the write, so backward uses the masked values. Padded positions get
exactly zero weight and zero gradient, the gradients match the out-of-place
masked_fill version to float precision, and the model trains.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import AdditiveAttention

torch.manual_seed(0)
torch.set_num_threads(1)

V, H, PAD, BOS = 12, 16, 0, 1


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H, padding_idx=PAD)
        self.encoder = nn.GRU(H, H, bidirectional=True)
        self.bridge = nn.Linear(2 * H, H)
        self.attn = AdditiveAttention(H)
        self.cell = nn.GRUCell(H + 2 * H, H)
        self.out = nn.Linear(H + 2 * H, V)

    def forward(self, src, tgt_in, src_mask):
        enc, _ = self.encoder(self.emb(src))
        hidden = torch.tanh(self.bridge(enc.mean(0)))
        logits, all_weights = [], []
        for t in range(tgt_in.size(0)):
            weights = self.attn(hidden, enc, src_mask)
            context = torch.bmm(weights.unsqueeze(1), enc.transpose(0, 1)).squeeze(1)
            hidden = self.cell(torch.cat([self.emb(tgt_in[t]), context], -1), hidden)
            logits.append(self.out(torch.cat([hidden, context], -1)))
            all_weights.append(weights)
        return torch.stack(logits), torch.stack(all_weights)


def batch(n=8, max_len=6):
    lengths = torch.randint(3, max_len + 1, (n,))
    lengths[0] = max_len
    src = torch.full((max_len, n), PAD)
    tgt = torch.full((max_len, n), PAD)
    for b, L in enumerate(lengths.tolist()):
        seq = torch.randint(2, V, (L,))
        src[:L, b] = seq
        tgt[:L, b] = seq.flip(0)
    tgt_in = torch.cat([torch.full((1, n), BOS), tgt[:-1]])
    return src, tgt_in, tgt, (src != PAD).long()


def loss_of(model, data):
    src, tgt_in, tgt, mask = data
    logits, weights = model(src, tgt_in, mask)
    return F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD), weights


model = Seq2Seq()
twin = copy.deepcopy(model)
twin.attn.write_through_data = False
data = batch()
loss_a, weights = loss_of(model, data)
loss_b, _ = loss_of(twin, data)
loss_a.backward()
loss_b.backward()
assert torch.allclose(loss_a, loss_b)
pad_positions = (data[3] == 0).t().unsqueeze(0).expand_as(weights)
assert torch.all(weights[pad_positions] == 0)
for (name, p), q in zip(model.named_parameters(), twin.parameters()):
    assert torch.isfinite(p.grad).all(), name
    assert torch.allclose(p.grad, q.grad, atol=1e-6), name

model.zero_grad()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
fixed_eval = batch(32)
with torch.no_grad():
    start = loss_of(model, fixed_eval)[0].item()
for _ in range(150):
    opt.zero_grad()
    loss, _ = loss_of(model, batch(32))
    loss.backward()
    opt.step()
with torch.no_grad():
    end = loss_of(model, fixed_eval)[0].item()
assert end < 0.6 * start
print(f"masked attention via .data: grads match out-of-place masking; loss {start:.2f} -> {end:.2f}")
