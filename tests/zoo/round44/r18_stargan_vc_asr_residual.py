"""
expect: GL005 42
dynamic: confirm
source: https://github.com/yl4579/StarGANv2-VC/commit/ae0c6f4b7da6510d29ceffc9961dd42a478488df

StarGANv2-VC trains its voice-conversion generator with an ASR feature loss: a pretrained ASR CNN is
frozen and put in eval mode, features of the real mel are computed under no_grad as the target, and
features of the converted mel are computed with autograd so the loss reaches the generator. The ASR
residual block adds the skip connection in place (`x += res`). Each block ends in ReLU and Dropout;
in eval mode Dropout hands back its input unchanged, so `x` is the ReLU output that ReLU saved for its
backward, and the in-place add makes the generator's backward fail with "modified by an inplace
operation". During ASR pretraining (train mode, dropout active) Dropout returns a new tensor and the
same code works, which is why the bug only shows up in the VC stage. The asserts show the error in
the VC setting, the clean backward in pretraining mode, and the generator training once the skip
connection is added out of place.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ConvBlock(nn.Module):
    def __init__(self, dim, n_conv=2, dropout_p=0.2, out_of_place=False):
        super().__init__()
        self.out_of_place = out_of_place
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv1d(dim, dim, 3, padding=3 ** i, dilation=3 ** i), nn.ReLU(),
                          nn.GroupNorm(4, dim), nn.Dropout(dropout_p),
                          nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU(), nn.Dropout(dropout_p))
            for i in range(n_conv)])

    def forward(self, x):
        for block in self.blocks:
            res = x
            x = block(x)
            if self.out_of_place:
                x = x + res
            else:
                x += res
        return x


class ASRCNN(nn.Module):
    def __init__(self, n_mels=16, dim=16, n_tokens=10, out_of_place=False):
        super().__init__()
        self.proj = nn.Conv1d(n_mels, dim, 1)
        self.cnn = ConvBlock(dim, out_of_place=out_of_place)
        self.ctc = nn.Conv1d(dim, n_tokens, 1)

    def get_feature(self, mel):
        return self.cnn(self.proj(mel))

    def forward(self, mel):
        return self.ctc(self.get_feature(mel))


class Generator(nn.Module):
    def __init__(self, n_mels=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mels, 32, 5, padding=2), nn.LeakyReLU(0.2), nn.Conv1d(32, n_mels, 5, padding=2))

    def forward(self, mel):
        return mel + self.net(mel)


mel_real = torch.randn(4, 16, 40)

# stage 1: ASR pretraining (train mode) runs through the in-place residual without complaint
asr = ASRCNN()
asr.train()
tokens = torch.randint(0, 10, (4, 40))
F.cross_entropy(asr(mel_real), tokens).backward()
assert asr.proj.weight.grad is not None

# stage 2: the frozen, eval-mode ASR as a feature loss for the converter
asr.eval().requires_grad_(False)
gen = Generator()
with torch.no_grad():
    asr_real = asr.get_feature(mel_real)
loss_asr = F.smooth_l1_loss(asr.get_feature(gen(mel_real)), asr_real)
try:
    loss_asr.backward()
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace operation" in str(err), err

# fixed ASR block: the generator receives gradients and the ASR loss falls
asr_fixed = ASRCNN(out_of_place=True)
asr_fixed.load_state_dict(asr.state_dict())
asr_fixed.eval().requires_grad_(False)
gen = Generator()
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
with torch.no_grad():
    target = asr_fixed.get_feature(mel_real)
noisy = mel_real + 0.5 * torch.randn_like(mel_real)
hist = []
for _ in range(60):
    opt.zero_grad()
    loss = F.smooth_l1_loss(asr_fixed.get_feature(gen(noisy)), target)
    loss.backward()
    assert gen.net[0].weight.grad.abs().sum() > 0
    opt.step()
    hist.append(loss.item())
assert hist[-1] < hist[0], (hist[0], hist[-1])
assert all(p.grad is None for p in asr_fixed.parameters())
print(f"checked: in-place residual in the frozen ASR; out-of-place version {hist[0]:.4f} -> {hist[-1]:.4f}")
