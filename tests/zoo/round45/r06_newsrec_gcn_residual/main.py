"""expect: GL005 layers.py:20
dynamic: confirm
source: https://github.com/Veason-silverbullet/NNR/issues/3

A news recommender encodes the titles of a user's clicked news, refines them with a residual GCN over
a click co-occurrence graph and scores candidate news against the pooled user vector. The GCN layer adds
the residual with an in-place "out += feature" right after F.relu. ReLU saves its output to compute its
gradient, so the in-place add changes a tensor the recorded graph still needs and loss.backward() raises
"modified by an inplace operation" (the report in the linked issue; the maintainers replaced it with
"out = out + feature"). The asserts catch that RuntimeError for the in-place layer and check that the
out-of-place residual trains the title encoder and the GCN weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import GCN, GCNLayer


class OutOfPlaceGCNLayer(GCNLayer):
    def forward(self, feature, graph):
        out = F.relu(self.W(torch.bmm(graph, feature)))
        return out + feature if self.residual else out


class NewsRecommender(nn.Module):
    def __init__(self, vocab=200, dim=16, fixed=False):
        super().__init__()
        self.title_emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.gcn = GCN(dim)
        if fixed:
            self.gcn.layers = nn.ModuleList([OutOfPlaceGCNLayer(dim, dim, residual=True) for _ in range(2)])

    def encode_titles(self, titles):                       # [batch, n, words]
        b, n, w = titles.shape
        return self.title_emb(titles.reshape(b * n, w)).reshape(b, n, -1)

    def forward(self, clicked, graph, candidates):
        nodes = self.gcn(self.encode_titles(clicked), graph)
        user = nodes.mean(dim=1)                           # [batch, dim]
        cand = self.encode_titles(candidates)              # [batch, c, dim]
        return torch.bmm(cand, user.unsqueeze(-1)).squeeze(-1)


def make_batch(b=8, n=6, c=5, words=7):
    clicked = torch.randint(0, 200, (b, n, words))
    adj = (torch.rand(b, n, n) < 0.4).float() + torch.eye(n)
    graph = adj / adj.sum(-1, keepdim=True)
    candidates = torch.randint(0, 200, (b, c, words))
    labels = torch.zeros(b, dtype=torch.long)              # first candidate is the clicked one
    return clicked, graph, candidates, labels


torch.manual_seed(0)
torch.set_num_threads(1)

model = NewsRecommender()
clicked, graph, candidates, labels = make_batch()
loss = F.cross_entropy(model(clicked, graph, candidates), labels)
try:
    loss.backward()
    raise AssertionError("expected the in-place residual to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

torch.manual_seed(0)
fixed = NewsRecommender(fixed=True)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
w0 = fixed.gcn.layers[0].W.weight.detach().clone()
for _ in range(5):
    clicked, graph, candidates, labels = make_batch()
    loss = F.cross_entropy(fixed(clicked, graph, candidates), labels)
    opt.zero_grad()
    loss.backward()
    assert fixed.title_emb.weight.grad.abs().sum() > 0
    opt.step()
assert not torch.equal(w0, fixed.gcn.layers[0].W.weight)

print("in-place residual fails backward; out-of-place residual trains, last loss %.3f" % loss.item())
