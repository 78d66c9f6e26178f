"""
expect: GL001 graph_feats.py:14
dynamic: confirm
source: https://github.com/dinobby/MAGDi/issues/5

A reader of a graph-distillation method asked whether the GCN loss can
update the student decoder at all: the node embeddings fed to the GCN are
the student's hidden states computed under torch.no_grad() (and saved), so
the graph objective only trains the GCN. Here graph_feats.py computes the
node features inside no_grad and the trainer adds a node-classification
loss meant to shape the student. The asserts show the student's gradient is
identical with the graph loss weighted 0 or 1, unlike with live features.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from graph_feats import build_graph_batch, build_graph_batch_live

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, N_NODES, LEN = 50, 24, 6, 5


class TinyStudent(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.block = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.lm_head = nn.Linear(DIM, VOCAB)

    def encode(self, tokens):
        return self.block(self.emb(tokens))

    def lm_loss(self, tokens):
        logits = self.lm_head(self.encode(tokens[:, :-1]))
        return F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(DIM, DIM)
        self.l2 = nn.Linear(DIM, 2)

    def forward(self, g):
        a = g.adj + torch.eye(g.adj.shape[0])
        a = a / a.sum(1, keepdim=True)
        h = F.relu(self.l1(a @ g.x))
        return self.l2(a @ h)


def student_grad(graph_weight, live=False):
    torch.manual_seed(0)
    student, gcn = TinyStudent(), GCN()
    tokens = torch.randint(0, VOCAB, (4, LEN))
    node_tokens = torch.randint(0, VOCAB, (N_NODES, LEN))
    adj = (torch.rand(N_NODES, N_NODES) < 0.4).float()
    labels = torch.randint(0, 2, (N_NODES,))
    build = build_graph_batch_live if live else build_graph_batch
    g = build(student, node_tokens, adj, labels)
    loss = student.lm_loss(tokens) + graph_weight * F.cross_entropy(gcn(g), g.y)
    loss.backward()
    return student.block[0].weight.grad.clone(), gcn.l1.weight.grad


g0, _ = student_grad(0.0)
g1, gcn_grad = student_grad(1.0)
assert gcn_grad is not None and gcn_grad.abs().sum() > 0  # GCN itself trains
assert torch.equal(g0, g1)  # graph loss adds nothing to the student

l0, _ = student_grad(0.0, live=True)
l1, _ = student_grad(1.0, live=True)
assert not torch.allclose(l0, l1)
print("ok: graph loss never reaches the student when node features come from no_grad")
