"""
expect: GL002 43
dynamic: confirm
source: https://github.com/facebookresearch/fairseq/issues/2789

The reporter optimised the frequency of a synthetic sine so that its wav2vec encoder features
match a target tone, but fp.grad stayed None: their extractor wrapped the waveform in
torch.tensor(x.view(1, -1)) before feeding the encoder, which copies the values into a new
leaf and drops the graph back to the learnable frequency. Here a small conv stack stands in for
the wav2vec feature encoder (left in eval mode, weights still requiring grad as in the report,
so backward runs without error). The asserts show the frequency gets no gradient and never
moves, while the same loss without the re-wrap gives it a gradient and an update.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="To copy construct")
torch.manual_seed(0)
torch.set_num_threads(1)

SR = 8000
t = torch.linspace(0.0, 0.25, SR // 4)


class FeatureEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 10, stride=5), nn.GELU(),
                                  nn.Conv1d(8, 16, 8, stride=4), nn.GELU())

    def forward(self, wav):
        return self.conv(wav.unsqueeze(1))


class Wav2VecDistance:
    def __init__(self, encoder, rewrap=True):
        self.encoder, self.rewrap = encoder, rewrap

    def features(self, x):
        if self.rewrap:
            return self.encoder(torch.tensor(x.view(1, -1)))
        return self.encoder(x.view(1, -1))

    def __call__(self, x, y):
        return torch.mean(torch.abs(self.features(x) - self.features(y)))


def sine(f0):
    return 0.5 * torch.cos(f0 * 2.0 * 3.14159 * t)


encoder = FeatureEncoder().eval()
target = sine(torch.tensor(440.0))


def fit(rewrap, steps=5):
    dist = Wav2VecDistance(encoder, rewrap=rewrap)
    f0 = torch.tensor(460.0, requires_grad=True)
    opt = torch.optim.SGD([f0], lr=50.0)
    grads = []
    for _ in range(steps):
        loss = dist(sine(f0), target)
        opt.zero_grad()
        encoder.zero_grad()
        loss.backward()
        grads.append(f0.grad)
        opt.step()
    return f0.detach().item(), grads


f_bug, g_bug = fit(rewrap=True)
assert all(g is None for g in g_bug)
assert f_bug == 460.0
# the encoder weights did receive gradients, so nothing raised
assert encoder.conv[0].weight.grad is not None

f_fix, g_fix = fit(rewrap=False)
assert all(g is not None and g.abs() > 0 for g in g_fix)
assert f_fix != 460.0
print("q03 ok: torch.tensor(x) inside the feature helper detaches the synthesised waveform")
