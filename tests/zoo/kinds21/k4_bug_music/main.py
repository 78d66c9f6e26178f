"""
expect: GL005 vq.py:35
dynamic: confirm
source: kinds check 21, kind 4 (written for this check)

Music tokenizer over spectrogram frames: CodebookEMA.quantize (vq.py) builds the
distance matrix d from x @ codebook.t(), which saves the codebook buffer, and then
overwrites the codebook in place in its EMA update. This caller passes
return_soft=True and adds a code-usage entropy loss on softmax(-d), so backward goes
through d and finds the saved codebook modified. The asserts show backward raises
the in-place error, and that the same step with the EMA update off (quantizer in
eval mode) backpropagates fine and reaches every parameter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from vq import CodebookEMA


class FrameTokenizer(nn.Module):
    def __init__(self, n_mels=40, dim=12, n_codes=24):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_mels, 64), nn.GELU(), nn.Linear(64, dim))
        self.quantizer = CodebookEMA(n_codes, dim)
        self.decoder = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, n_mels))


def tokenizer_loss(model, mel, diversity_weight=0.1):
    frames = mel.transpose(1, 2).reshape(-1, mel.shape[1])
    z = model.encoder(frames)
    zq, codes, commit, soft = model.quantizer.quantize(z, return_soft=True)
    recon = F.mse_loss(model.decoder(zq), frames)
    usage = soft.mean(0)
    diversity = (usage * usage.clamp_min(1e-9).log()).sum()
    return recon + 0.25 * commit + diversity_weight * diversity


if __name__ == "__main__":
    torch.manual_seed(11)
    mel = torch.randn(4, 40, 50).abs().log1p()
    model = FrameTokenizer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt.zero_grad()
    loss = tokenizer_loss(model, mel)
    try:
        loss.backward()
        raised = ""
    except RuntimeError as err:
        raised = str(err)
    assert "modified by an inplace operation" in raised, raised
    # same step with the quantizer in eval mode (no EMA update): backward works
    model.quantizer.eval()
    opt.zero_grad()
    tokenizer_loss(model, mel).backward()
    assert all(p.grad.abs().sum() > 0 for p in model.parameters())
    print("ok: the EMA write to the saved codebook breaks the soft-assignment backward")
