"""
expect: GL001 23
dynamic: confirm
source: kinds check 11, kind 4

A speaker-identification model: a frame-level encoder maps each acoustic frame
to an embedding, StatsPool turns the utterance into the mean and standard
deviation of those embeddings, and a speaker head classifies the pooled vector.
StatsPool returns only the concatenated statistics and detaches them, so its
output has no autograd connection to the frames. The cross-entropy loss trains
the head through that output, but the frame encoder before the pool is starved:
its parameters keep .grad None. The detach in StatsPool.forward is the cut.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StatsPool(nn.Module):
    def forward(self, frames):  # (B, T, D)
        mu = frames.mean(dim=1)
        sd = frames.std(dim=1)
        return torch.cat([mu, sd], dim=-1).detach()


class SpeakerNet(nn.Module):
    def __init__(self, n_feats=24, dim=16, n_speakers=5):
        super().__init__()
        self.frame_enc = nn.Sequential(nn.Linear(n_feats, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.pool = StatsPool()
        self.speaker_head = nn.Linear(2 * dim, n_speakers)

    def forward(self, feats):
        return self.speaker_head(self.pool(self.frame_enc(feats)))


def main():
    torch.manual_seed(7)
    net = SpeakerNet()
    feats = torch.randn(6, 40, 24)
    speakers = torch.randint(0, 5, (6,))
    loss = F.cross_entropy(net(feats), speakers)
    loss.backward()
    assert all(p.grad is None for p in net.frame_enc.parameters()), "encoder got a gradient"
    assert all(p.grad is not None for p in net.speaker_head.parameters())
    print("k04 bug: speaker head trains, frame encoder gets no gradient")


if __name__ == "__main__":
    main()
