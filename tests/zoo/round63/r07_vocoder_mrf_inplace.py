"""
expect: none
dynamic: dismiss
source: https://github.com/kadeyshvili/hifigan/blob/42b501a8545f3ef3d85ee131b39dfa63c3e5be23/src/model/generator.py#L36

A HiFi-GAN vocoder re-implementation sums the outputs of its multi-receptive
field fusion (MRF) residual blocks with an in-place add: `result =
self.res_blocks[0](x)` and then `result += block(x)` for the other blocks.
Each residual block ends with `x = x + res`, and the fused sum is then fed to
the next up-sampling block's LeakyReLU.  An in-place `+=` on an activation
inside the generator looks like a "modified by an inplace operation" waiting
to happen, but the tensor being modified is the output of an addition, which
saves nothing for backward, and nothing has consumed it yet when it is
updated; the LeakyReLU that saves it runs afterwards.  The program builds a
small generator with two up-sampling blocks and three-kernel MRFs, trains it
on a toy mel/waveform pair with an L1 waveform plus spectral-magnitude loss,
and asserts that backward succeeds, that every residual conv receives a
non-zero gradient identical to an out-of-place version of the same fusion,
and that the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ResBlock(nn.Module):
    def __init__(self, channels, kernel_size, dilations):
        super().__init__()
        self.blocks = nn.ModuleList(
            nn.ModuleList(
                nn.Sequential(nn.LeakyReLU(0.1), nn.Conv1d(channels, channels, kernel_size, dilation=d, padding="same"))
                for d in group
            )
            for group in dilations
        )

    def forward(self, x):
        for group in self.blocks:
            res = x
            for layer in group:
                x = layer(x)
            x = x + res
        return x


class MRF(nn.Module):
    def __init__(self, channels, kernel_sizes, dilations):
        super().__init__()
        self.res_blocks = nn.ModuleList(ResBlock(channels, k, dilations) for k in kernel_sizes)

    def forward(self, x):
        result = self.res_blocks[0](x)
        for block in self.res_blocks[1:]:
            result += block(x)
        return result


class MRFOutOfPlace(MRF):
    def forward(self, x):
        result = self.res_blocks[0](x)
        for block in self.res_blocks[1:]:
            result = result + block(x)
        return result


class GenBlock(nn.Module):
    def __init__(self, channels, up, mrf_cls):
        super().__init__()
        self.act = nn.LeakyReLU(0.1)
        self.conv = nn.ConvTranspose1d(channels, channels // 2, up * 2, stride=up, padding=up // 2)
        self.mrf = mrf_cls(channels // 2, kernel_sizes=(3, 5, 7), dilations=((1, 1), (3, 1)))

    def forward(self, x):
        return self.mrf(self.conv(self.act(x)))


class Generator(nn.Module):
    def __init__(self, n_mels=8, hidden=16, ups=(2, 2), mrf_cls=MRF):
        super().__init__()
        self.first = nn.Conv1d(n_mels, hidden, 7, padding="same")
        self.blocks = nn.ModuleList(GenBlock(hidden // (2 ** i), u, mrf_cls) for i, u in enumerate(ups))
        self.act = nn.LeakyReLU(0.1)
        self.last = nn.Conv1d(hidden // (2 ** len(ups)), 1, 7, padding="same")

    def forward(self, mel):
        x = self.first(mel)
        for block in self.blocks:
            x = block(x)
        return torch.tanh(self.last(self.act(x)))


def vocoder_loss(gen, mel, wav):
    pred = gen(mel).squeeze(1)
    spec = lambda w: torch.stft(w, n_fft=16, hop_length=4, window=torch.hann_window(16), return_complex=True).abs()
    return F.l1_loss(pred, wav) + F.l1_loss(spec(pred), spec(wav))


mel = torch.randn(2, 8, 16)
wav = torch.tanh(torch.randn(2, 64)) * 0.5

torch.manual_seed(1)
gen = Generator(mrf_cls=MRF)
torch.manual_seed(1)
ref = Generator(mrf_cls=MRFOutOfPlace)
ref.load_state_dict(gen.state_dict())

vocoder_loss(gen, mel, wav).backward()
vocoder_loss(ref, mel, wav).backward()
for (name, p), q in zip(gen.named_parameters(), ref.parameters()):
    assert torch.allclose(p.grad, q.grad, atol=1e-7), name
res_convs = [m for m in gen.modules() if isinstance(m, nn.Conv1d) and m.dilation[0] in (1, 3) and m is not gen.first and m is not gen.last]
assert all(m.weight.grad.abs().sum() > 0 for m in res_convs)

opt = torch.optim.Adam(gen.parameters(), lr=2e-3)
losses = []
for _ in range(40):
    opt.zero_grad()
    loss = vocoder_loss(gen, mel, wav)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.8 * losses[0], (losses[0], losses[-1])

print("r07 ok")
