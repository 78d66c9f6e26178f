"""E(n)-equivariant graph convolution layer (dense graph, cdist radial features)."""
import torch
import torch.nn as nn


def segment_mean(data, segment_ids, num_segments):
    out = data.new_zeros((num_segments, data.size(1)))
    count = data.new_zeros((num_segments, data.size(1)))
    out = out.index_add(0, segment_ids, data)
    count = count.index_add(0, segment_ids, torch.ones_like(data))
    return out / count.clamp(min=1)


class E_GCL(nn.Module):
    def __init__(self, hidden_nf, inplace_coord_update=True):
        super().__init__()
        self.inplace_coord_update = inplace_coord_update
        self.edge_mlp = nn.Sequential(nn.Linear(2 * hidden_nf + 1, hidden_nf), nn.SiLU(),
                                      nn.Linear(hidden_nf, hidden_nf), nn.SiLU())
        self.node_mlp = nn.Sequential(nn.Linear(2 * hidden_nf, hidden_nf), nn.SiLU(),
                                      nn.Linear(hidden_nf, hidden_nf))
        last = nn.Linear(hidden_nf, 1, bias=False)
        nn.init.xavier_uniform_(last.weight, gain=0.01)
        self.coord_mlp = nn.Sequential(nn.Linear(hidden_nf, hidden_nf), nn.SiLU(), last)

    def coord_model(self, coord, row, col, edge_feat):
        coord_diff = coord[row] - coord[col]
        trans = coord_diff * self.coord_mlp(edge_feat)
        agg = segment_mean(trans, row, coord.size(0))
        if self.inplace_coord_update:
            coord += agg                      # in-place update of the coordinates
        else:
            coord = coord + agg
        return coord

    def forward(self, h, coord, row, col):
        # pairwise distances for the whole (small, dense) graph; cdist keeps `coord` for backward
        dist = torch.cdist(coord, coord)
        radial = dist[row, col].unsqueeze(-1) ** 2
        edge_feat = self.edge_mlp(torch.cat([h[row], h[col], radial], dim=1))
        coord = self.coord_model(coord, row, col, edge_feat)
        agg_h = segment_mean(edge_feat, row, h.size(0))
        h = h + self.node_mlp(torch.cat([h, agg_h], dim=1))
        return h, coord


class EGNN(nn.Module):
    def __init__(self, in_nf, hidden_nf, n_layers=2, inplace_coord_update=True):
        super().__init__()
        self.embedding = nn.Linear(in_nf, hidden_nf)
        self.layers = nn.ModuleList([E_GCL(hidden_nf, inplace_coord_update) for _ in range(n_layers)])

    def forward(self, h, x, row, col):
        h = self.embedding(h)
        for layer in self.layers:
            h, x = layer(h, x, row, col)
        return h, x
