"""expect: none
dynamic: dismiss
source: https://github.com/iesl/diora/issues/7

Look-alike. DIORA (unsupervised constituency parsing with an inside-outside
autoencoder) preallocates a chart tensor and fills it cell by cell with
slice assignments (`chart.inside_h[:, offset:offset+L] = h`) while the chart
is also read for the next level. An issue argued these in-place writes must
break backpropagation. The author's answer: autograd tracks the versions, the
code never overwrites a cell after it was read, and the reads go through
index_select, which copies and saves only the indices. No saved tensor is
ever modified, so backward works and every parameter gets its gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def level_offsets(n):
    offsets, acc = [], 0
    for level in range(n):
        offsets.append(acc)
        acc += n - level
    return offsets


def inside_index(n, level, offsets):
    lidx, ridx = [], []
    for pos in range(n - level):
        for k in range(level):
            lidx.append(offsets[k] + pos)
            ridx.append(offsets[level - k - 1] + pos + k + 1)
    return torch.tensor(lidx), torch.tensor(ridx)


class Chart:
    def __init__(self, batch, n, size):
        ncells = n * (n + 1) // 2
        self.inside_h = torch.full((batch, ncells, size), 0.0)
        self.inside_s = torch.full((batch, ncells, 1), 0.0)


class ComposeMLP(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.w0 = nn.Linear(2 * size, size)
        self.w1 = nn.Linear(size, size)

    def forward(self, left, right):
        return torch.relu(self.w1(torch.relu(self.w0(torch.cat([left, right], -1)))))


class Bilinear(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.mat = nn.Parameter(torch.randn(size, size) * 0.1)

    def forward(self, a, b):
        return ((a @ self.mat) * b).sum(-1, keepdim=True)


class DioraInside(nn.Module):
    def __init__(self, vocab=20, size=8):
        super().__init__()
        self.size = size
        self.emb = nn.Embedding(vocab, size)
        self.leaf = nn.Linear(size, size)
        self.compose = ComposeMLP(size)
        self.score = Bilinear(size)

    def forward(self, tokens):
        batch, n = tokens.shape
        chart, offsets = Chart(batch, n, self.size), level_offsets(n)
        chart.inside_h[:, :n] = F.normalize(torch.tanh(self.leaf(self.emb(tokens))), dim=-1)
        for level in range(1, n):
            L = n - level
            lidx, ridx = inside_index(n, level, offsets)
            lh = chart.inside_h.index_select(1, lidx)
            rh = chart.inside_h.index_select(1, ridx)
            ls = chart.inside_s.index_select(1, lidx)
            rs = chart.inside_s.index_select(1, ridx)
            h = self.compose(lh, rh)
            s = self.score(lh, rh) + ls + rs
            p = torch.softmax(s.view(batch, L, level, 1), dim=2)
            h_agg = F.normalize((h.view(batch, L, level, -1) * p).sum(2), dim=-1)
            s_agg = (s.view(batch, L, level, 1) * p).sum(2)
            chart.inside_h[:, offsets[level]:offsets[level] + L] = h_agg
            chart.inside_s[:, offsets[level]:offsets[level] + L] = s_agg
        return chart.inside_h[:, -1], chart.inside_s[:, -1]


torch.manual_seed(0)
parser = DioraInside()
readout = nn.Linear(8, 20)
opt = torch.optim.Adam(list(parser.parameters()) + list(readout.parameters()), lr=1e-3)
tokens = torch.randint(0, 20, (3, 6))
root_h, root_s = parser(tokens)
loss = F.cross_entropy(readout(root_h), tokens[:, 0]) - root_s.mean() * 0.1
opt.zero_grad()
loss.backward()
opt.step()

for name, p in list(parser.named_parameters()) + list(readout.named_parameters()):
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("OK")
