"""
expect: GL005 41
dynamic: confirm
source: https://github.com/acrarshin/RPNet/pull/6

RPNet locates R-peaks in ECG with a 1-D U-Net built from Inception-residual blocks. Each block ends with a
ReLU, and its output is used twice: as the U-Net skip connection and as the input of the next encoder
stage. The encoder stages started with nn.LeakyReLU(0.2, inplace=True), so the next stage overwrote, in
place, the very tensor that the block's ReLU had saved for its backward pass (ReLU's gradient is computed
from its output). Forward runs, but backward stops with "modified by an inplace operation"; the pull
request removed the in-place activations. This program builds a small version of that network on random
ECG-like sequences, catches and checks the RuntimeError for the in-place variant, and trains the
out-of-place variant: the loss falls and the first block's weights get non-zero gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class IncResBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.b1 = nn.Conv1d(cin, cout // 2, 3, padding=1)
        self.b2 = nn.Conv1d(cin, cout // 2, 7, padding=3)
        self.skip = nn.Conv1d(cin, cout, 1)
        self.bn = nn.BatchNorm1d(cout)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.bn(torch.cat([self.b1(x), self.b2(x)], dim=1)) + self.skip(x)
        return self.relu(out)


def encoder_stage(cin, cout, out_of_place):
    if out_of_place:
        act = nn.LeakyReLU(0.2)
    else:
        act = nn.LeakyReLU(0.2, inplace=True)
    return nn.Sequential(act, nn.Conv1d(cin, cout, 4, stride=2, padding=1), nn.BatchNorm1d(cout))


class PeakUNet(nn.Module):
    def __init__(self, out_of_place):
        super().__init__()
        self.e1 = IncResBlock(1, 8)
        self.e2 = encoder_stage(8, 16, out_of_place)
        self.e3 = IncResBlock(16, 16)
        self.e4 = encoder_stage(16, 32, out_of_place)
        self.d1 = nn.ConvTranspose1d(32, 16, 4, stride=2, padding=1)
        self.d2 = nn.ConvTranspose1d(32, 8, 4, stride=2, padding=1)
        self.head = nn.Conv1d(16, 1, 1)

    def forward(self, x):
        s1 = self.e1(x)
        s2 = self.e3(self.e2(s1))
        bottom = self.e4(s2)
        up = F.relu(self.d1(bottom))
        up = F.relu(self.d2(torch.cat([up, s2], dim=1)))
        return self.head(torch.cat([up, s1], dim=1))


ecg = torch.randn(6, 1, 64)
peaks = torch.zeros(6, 1, 64)
peaks[:, :, ::16] = 1.0
target = F.avg_pool1d(F.pad(peaks, (2, 2)), 5, stride=1)

# 1) in-place LeakyReLU at the start of the encoder stages
model = PeakUNet(out_of_place=False)
loss = F.mse_loss(model(ecg), target)
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the in-place LeakyReLU to break backward"
print("in-place LeakyReLU: backward refused (ReLU output was overwritten)")

# 2) out-of-place LeakyReLU trains
torch.manual_seed(0)
model = PeakUNet(out_of_place=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for step in range(40):
    opt.zero_grad()
    loss = F.mse_loss(model(ecg), target)
    loss.backward()
    if step == 0:
        assert model.e1.b1.weight.grad.abs().sum() > 0
    opt.step()
    history.append(loss.item())
assert history[-1] < 0.5 * history[0], (history[0], history[-1])
print("out-of-place LeakyReLU: loss %.4f -> %.4f" % (history[0], history[-1]))
