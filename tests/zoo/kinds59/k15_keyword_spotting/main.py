"""
expect: none
dynamic: dismiss
source: none, invented

Keyword spotting on synthetic mel-spectrogram-like clips. encoders/audio.py defines a pretrained
`FrameEncoder` whose forward runs its `stem` convolution under `torch.no_grad()` while its other
convolutions stay attached, and a `KeywordHead` whose forward updates running-mean/variance
buffers from `.detach()`ed batch statistics. This script freezes the whole encoder
(`requires_grad_(False)`, `eval()`) and gives the optimizer only the head's parameters, so the
no_grad region cuts nothing that is meant to train, and the detached statistics only feed
non-trainable buffers. This is correct. The asserts check that the encoder is unchanged, that the
head's linear layer trains, that the buffers moved, and that the keyword accuracy is high.
"""
import torch
import torch.nn.functional as F

from encoders.audio import FrameEncoder, KeywordHead

torch.manual_seed(0)
torch.set_num_threads(1)

N_MELS, T, WORDS = 20, 40, 5
TEMPLATES = torch.randn(WORDS, N_MELS, 1) * torch.linspace(0.5, 1.5, T)


def clips(n=64):
    y = torch.randint(0, WORDS, (n,))
    return TEMPLATES[y] + 0.8 * torch.randn(n, N_MELS, T), y


if __name__ == "__main__":
    encoder = FrameEncoder(N_MELS)
    encoder.requires_grad_(False)
    encoder.eval()
    head = KeywordHead(32, WORDS)
    opt = torch.optim.Adam(head.parameters(), lr=1e-2)
    enc0 = {k: v.clone() for k, v in encoder.state_dict().items()}
    fc0 = head.fc.weight.detach().clone()

    head.train()
    for _ in range(200):
        x, y = clips()
        loss = F.cross_entropy(head(encoder(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    assert all(torch.equal(encoder.state_dict()[k], enc0[k]) for k in enc0)
    assert head.fc.weight.grad is not None
    assert (head.fc.weight - fc0).abs().max().item() > 1e-3
    assert head.feat_mean.abs().sum() > 0
    head.eval()
    x, y = clips(500)
    with torch.no_grad():
        acc = (head(encoder(x)).argmax(1) == y).float().mean().item()
    assert acc > 0.9, acc
    print("k15_keyword_spotting: all checks passed")
