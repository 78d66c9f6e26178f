"""Query-based 3D tracker: track queries are refined frame by frame and carried forward."""
import torch
import torch.nn as nn


class TrackInstances:
    def __init__(self, query, ref_pts):
        self.query = query          # (num_tracks, dim)
        self.ref_pts = ref_pts      # (num_tracks, 3)


class QueryTracker(nn.Module):
    def __init__(self, feat_dim=10, dim=16, num_tracks=6):
        super().__init__()
        self.num_tracks = num_tracks
        self.frame_encoder = nn.Linear(feat_dim, dim)
        self.query_update = nn.GRUCell(dim, dim)
        self.box_head = nn.Linear(dim, 3)
        self.init_query = nn.Parameter(torch.randn(num_tracks, dim) * 0.1)

    def init_tracks(self):
        return TrackInstances(self.init_query, torch.zeros(self.num_tracks, 3))

    def forward(self, frame_feats, tracks):
        context = torch.relu(self.frame_encoder(frame_feats))       # (num_tracks, dim)
        query = self.query_update(context, tracks.query)             # depends on past frames
        offsets = self.box_head(query)
        boxes = tracks.ref_pts.detach() + offsets
        return boxes, TrackInstances(query, boxes)
