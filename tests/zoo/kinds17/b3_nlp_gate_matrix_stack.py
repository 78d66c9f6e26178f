"""
expect: none
dynamic: dismiss
source: kind B

A tiny NLP model mixes two token-level channels (a bag-of-embeddings channel
and a positional channel) with a learnable 2x2 gate.  The gate entries are
scalar nn.Parameters bound to local names, but the matrix is built with
``torch.stack`` of ``torch.stack`` rows, which keeps the graph, so every entry
receives a gradient and changes during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoChannelClassifier(nn.Module):
    def __init__(self, vocab=50, dim=12, n_cls=3, max_len=20):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.g_tt = nn.Parameter(torch.tensor(1.0))
        self.g_tp = nn.Parameter(torch.tensor(0.0))
        self.g_pt = nn.Parameter(torch.tensor(0.0))
        self.g_pp = nn.Parameter(torch.tensor(1.0))
        self.cls = nn.Linear(dim, n_cls)

    def forward(self, tokens):
        a, b = self.g_tt, self.g_tp
        c, d = self.g_pt, self.g_pp
        gate = torch.stack([torch.stack([a, b]), torch.stack([c, d])])
        pos_ids = torch.arange(tokens.shape[1]).expand_as(tokens)
        chans = torch.stack([self.emb(tokens), self.pos(pos_ids)], dim=0)
        mixed = torch.einsum("ij,jbld->ibld", gate, chans).sum(0)
        return self.cls(mixed.mean(1))


def main():
    torch.manual_seed(5)
    model = TwoChannelClassifier()
    tokens = torch.randint(0, 50, (16, 20))
    labels = torch.randint(0, 3, (16,))
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    start = {n: p.detach().clone() for n, p in model.named_parameters() if n.startswith("g_")}
    first = None
    for _ in range(20):
        loss = F.cross_entropy(model(tokens), labels)
        first = first if first is not None else loss.item()
        opt.zero_grad()
        loss.backward()
        opt.step()
    for name, val in start.items():
        p = dict(model.named_parameters())[name]
        assert p.grad is not None, name
        assert not torch.equal(p.detach(), val), name
    assert loss.item() < first
    print("gate trained", first, "->", loss.item())


if __name__ == "__main__":
    main()
