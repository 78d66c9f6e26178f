"""expect: GL001 64
dynamic: confirm
source: https://github.com/queenie88/A-GCN/issues/4

A-GCN learns a label-correlation adjacency with a non-local block (theta/phi 1x1
convolutions) and propagates label embeddings through two graph convolutions with it.
The model's forward detached the normalised adjacency before the graph convolutions,
so W_theta and W_phi never receive a gradient; the authors confirmed and removed it.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NonLocalBlock1D(nn.Module):
    def __init__(self, in_channels, inter_channels=None):
        super().__init__()
        self.inter_channels = inter_channels or max(in_channels // 2, 1)
        self.theta = nn.Conv1d(in_channels, self.inter_channels, kernel_size=1)
        self.phi = nn.Conv1d(in_channels, self.inter_channels, kernel_size=1)

    def forward(self, x):
        n = x.size(0)
        theta_x = self.theta(x).view(n, self.inter_channels)
        phi_x = self.phi(x).view(n, self.inter_channels).t()
        f = torch.matmul(theta_x, phi_x)
        return f / f.size(-1)


def gen_adj(adj):
    # symmetric normalisation of a (softened) correlation matrix
    adj = torch.softmax(adj, dim=1)
    d = adj.sum(1).pow(-0.5)
    return d.unsqueeze(1) * adj * d.unsqueeze(0)


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        stdv = 1.0 / math.sqrt(out_features)
        self.weight.data.uniform_(-stdv, stdv)

    def forward(self, inp, adj):
        support = torch.matmul(inp, self.weight)
        return torch.matmul(adj, support)


class GCNResnet(nn.Module):
    def __init__(self, num_classes, in_channel=12, feat_dim=24):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(32, feat_dim), nn.ReLU())
        self.non_local = NonLocalBlock1D(in_channel)
        self.gc1 = GraphConvolution(in_channel, 16)
        self.gc2 = GraphConvolution(16, feat_dim)
        self.activate = nn.LeakyReLU(0.2)
        self.register_buffer("eye", torch.eye(num_classes))

    def forward(self, images, inp):
        feature = self.features(images)
        adj = self.non_local(inp.unsqueeze(2)) + self.eye
        adj = gen_adj(adj).detach()
        x = self.activate(self.gc1(inp, adj))
        x = self.gc2(x, adj)
        return torch.matmul(feature, x.transpose(0, 1))


def train_one_batch(model, optimizer, images, word_vectors, targets):
    optimizer.zero_grad()
    logits = model(images, word_vectors)
    loss = F.multilabel_soft_margin_loss(logits, targets)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes, emb = 10, 12
    model = GCNResnet(num_classes, in_channel=emb)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    images = torch.randn(8, 32)
    word_vectors = torch.randn(num_classes, emb)
    targets = (torch.rand(8, num_classes) > 0.7).float()
    train_one_batch(model, optimizer, images, word_vectors, targets)
    assert model.gc1.weight.grad is not None and model.gc1.weight.grad.abs().sum() > 0
    assert model.non_local.theta.weight.grad is None
    assert model.non_local.phi.weight.grad is None
    print("non-local correlation block got no gradient")
