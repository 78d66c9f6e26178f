"""Deep Graph Infomax building blocks: dense GCN layer, mean readout, bilinear discriminator."""
import torch
import torch.nn as nn


class GCN(nn.Module):
    def __init__(self, in_ft, out_ft):
        super().__init__()
        self.fc = nn.Linear(in_ft, out_ft, bias=False)
        self.act = nn.PReLU()
        self.bias = nn.Parameter(torch.zeros(out_ft))
        nn.init.xavier_uniform_(self.fc.weight)

    def forward(self, seq, adj):
        seq_fts = self.fc(seq)
        out = torch.bmm(adj, seq_fts)
        out += self.bias
        return self.act(out)


class AvgReadout(nn.Module):
    def forward(self, h):
        return h.mean(dim=1)


class Discriminator(nn.Module):
    def __init__(self, n_h):
        super().__init__()
        self.f_k = nn.Bilinear(n_h, n_h, 1)

    def forward(self, c, h_pl, h_mi, s_bias1=None, s_bias2=None):
        c_x = c.unsqueeze(1).expand_as(h_pl)
        sc_1 = torch.squeeze(self.f_k(h_pl, c_x), 2)
        sc_2 = torch.squeeze(self.f_k(h_mi, c_x), 2)
        if s_bias1 is not None:
            sc_1 += s_bias1
        if s_bias2 is not None:
            sc_2 += s_bias2
        return torch.cat((sc_1, sc_2), 1)


class DGI(nn.Module):
    def __init__(self, n_in, n_h):
        super().__init__()
        self.gcn = GCN(n_in, n_h)
        self.read = AvgReadout()
        self.disc = Discriminator(n_h)

    def forward(self, seq1, seq2, adj, samp_bias1=None, samp_bias2=None):
        h_1 = self.gcn(seq1, adj)
        c = torch.sigmoid(self.read(h_1))
        h_2 = self.gcn(seq2, adj)
        return self.disc(c, h_1, h_2, samp_bias1, samp_bias2)

    def embed(self, seq, adj):
        h_1 = self.gcn(seq, adj)
        return h_1.detach(), self.read(h_1).detach()
