"""
expect: GL005 normalizer.py:19
dynamic: confirm
source: none, invented

Speaker-identification training on synthetic "log-mel" frames.  A 1-D conv encoder pools the frames,
a projection followed by `tanh` gives a bounded speaker embedding, and a `RunningStandardizer`
from normalizer.py standardizes the embedding with running statistics before a linear speaker
classifier.  `RunningStandardizer.standardize` subtracts and divides in place on the tensor it is
given, and that tensor is the output of `tanh`, which autograd saved for the tanh backward.  The
first training step therefore dies in `backward()` with "modified by an inplace operation".  The
asserts catch that error and then train with the out-of-place `standardized` method, checking
that the accuracy on the training speakers rises and the encoder weights receive gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from normalizer import RunningStandardizer

torch.manual_seed(0)
torch.set_num_threads(1)

N_MELS, N_FRAMES, N_SPEAKERS, EMB = 20, 30, 6, 16


class FrameEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 3, padding=1), nn.ReLU(),
            nn.Conv1d(32, 32, 3, padding=1), nn.ReLU(),
        )
        self.proj = nn.Linear(32, EMB)

    def forward(self, mel):
        pooled = self.conv(mel).mean(-1)
        return torch.tanh(self.proj(pooled))


def make_batch(centroids, n=48):
    spk = torch.randint(0, N_SPEAKERS, (n,))
    mel = centroids[spk].unsqueeze(-1) + 0.8 * torch.randn(n, N_MELS, N_FRAMES)
    return mel, spk


def train(new_api, steps=60):
    torch.manual_seed(0)
    centroids = torch.randn(N_SPEAKERS, N_MELS)
    encoder = FrameEncoder()
    classifier = nn.Linear(EMB, N_SPEAKERS)
    stats = RunningStandardizer(EMB)
    opt = torch.optim.Adam(list(encoder.parameters()) + list(classifier.parameters()), lr=3e-3)
    for step in range(steps):
        mel, spk = make_batch(centroids)
        emb = encoder(mel)
        stats.update(emb)
        if new_api:
            emb = stats.standardized(emb)
        else:
            emb = stats.standardize(emb)
        loss = F.cross_entropy(classifier(emb), spk)
        opt.zero_grad()
        loss.backward()
        assert encoder.conv[0].weight.grad is not None
        opt.step()
    with torch.no_grad():
        mel, spk = make_batch(centroids, 256)
        acc = (classifier(stats.standardized(encoder(mel))).argmax(-1) == spk).float().mean()
    return acc.item()


if __name__ == "__main__":
    try:
        train(new_api=False)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("in-place standardization of the tanh output should break backward")
    acc = train(new_api=True)
    assert acc > 0.8, acc
    print(f"k02: in-place standardize breaks backward; out-of-place accuracy {acc:.2f}")
