"""
expect: GL005 phase.py:27
dynamic: confirm
source: https://github.com/pytorch/audio/issues/729

torchaudio's GriffinLim could not be backpropagated through: its momentum step
scaled the previous estimate in place (tprev.mul_), and that tensor (an output
of a subtraction) had already been saved by the ops that normalised it in the
previous iteration. Here a small speech-enhancement mask net is trained end to
end with a waveform loss through a Griffin-Lim helper in another file written
the same way. The asserts show backward raises the version-counter error,
while the out-of-place momentum update trains the mask net.
"""
import torch
import torch.nn as nn

from phase import N_FFT, HOP, griffin_lim

torch.manual_seed(0)
torch.set_num_threads(1)

LENGTH = 512
N_BINS = N_FFT // 2 + 1


class MaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BINS, 48), nn.ReLU(), nn.Linear(48, N_BINS))

    def forward(self, noisy_mag):              # (B, F, T)
        m = torch.sigmoid(self.net(noisy_mag.transpose(1, 2))).transpose(1, 2)
        return m * noisy_mag


def make_batch(g, b=4):
    t = torch.arange(LENGTH) / 8000.0
    f0 = 300 + 400 * torch.rand(b, 1, generator=g)
    clean = torch.sin(2 * torch.pi * f0 * t)
    noisy = clean + 0.3 * torch.randn(b, LENGTH, generator=g)
    win = torch.hann_window(N_FFT)
    mag = torch.stft(noisy, N_FFT, HOP, window=win, return_complex=True).abs()
    return mag, clean


def train(safe, steps=8):
    torch.manual_seed(0)
    net = MaskNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(0)
    hist, gnorm = [], None
    for i in range(steps):
        mag, clean = make_batch(g)
        wav = griffin_lim(net(mag), LENGTH, safe=safe)
        loss = (wav.abs() - clean.abs()).pow(2).mean()   # phase-agnostic waveform loss
        opt.zero_grad()
        loss.backward()
        if i == 0:
            gnorm = sum(p.grad.norm().item() for p in net.parameters())
        opt.step()
        hist.append(loss.item())
    return hist, gnorm


if __name__ == "__main__":
    err = None
    try:
        train(safe=False)
    except RuntimeError as e:
        err = str(e)
    print("buggy:", (err or "no error")[:110])
    assert err is not None and "inplace operation" in err

    hist, gnorm = train(safe=True)
    print("fixed: grad norm", gnorm, "loss", hist[0], "->", hist[-1])
    assert gnorm > 0
    assert hist[-1] < hist[0]
    print("OK")
