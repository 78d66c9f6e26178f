"""
expect: GL001 audio_tools.py:24, GL003 main.py:64
dynamic: confirm
source: https://github.com/snakers4/silero-vad/issues/460

silero-vad's utility loader called `torch.set_grad_enabled(False)` globally when
loading the JIT model; issue #460 reports that using the VAD inside a training
pipeline (to strip speech on the fly in the data step) "messes up" training,
and the earlier #192 / silero-models #40 reports show the resulting
"element 0 of tensors does not require grad" error. This program has the same
shape: audio_tools.load_voice_detector() switches grad mode off for the whole
process, and main.py then trains a small non-speech audio classifier. The
training code silences the error with `loss.requires_grad_(True)`, so backward
and optimizer.step() run, but every classifier weight keeps grad None and never
changes: the logits were computed with autograd disabled, and flipping
requires_grad on the loss gives it no history back to the parameters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from audio_tools import load_voice_detector, speech_frames


class NoiseClassifier(nn.Module):
    def __init__(self, frame=32, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(frame, 16), nn.ReLU(), nn.Linear(16, n_classes))

    def forward(self, frames, mask):
        keep = (1.0 - mask).unsqueeze(-1)
        pooled = (frames * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.net(pooled)


def make_batch(n=8, length=512):
    labels = torch.randint(0, 3, (n,))
    t = torch.arange(length).float()
    wave = 0.05 * torch.randn(n, length) + 0.02 * torch.sin(t * (labels[:, None] + 1) * 0.3)
    wave[:, 128:256] += 0.5 * torch.randn(n, 128)
    return wave, labels


def main():
    torch.manual_seed(0)
    detector = load_voice_detector()
    clf = NoiseClassifier()
    opt = torch.optim.SGD(clf.parameters(), lr=0.1)
    before = [p.detach().clone() for p in clf.parameters()]

    wave, labels = make_batch()
    frames, mask = speech_frames(detector, wave)
    loss = F.cross_entropy(clf(frames, mask), labels)
    try:
        loss.backward()
        raise AssertionError("expected the does-not-require-grad error")
    except RuntimeError as err:
        assert "does not require grad" in str(err)

    for _ in range(5):
        wave, labels = make_batch()
        frames, mask = speech_frames(detector, wave)
        loss = F.cross_entropy(clf(frames, mask), labels)
        loss.requires_grad_(True)
        opt.zero_grad()
        loss.backward()
        opt.step()
        assert all(p.grad is None for p in clf.parameters())

    assert all(torch.equal(b, a) for b, a in zip(before, clf.parameters()))
    torch.set_grad_enabled(True)
    print("classifier never trains after the global grad switch: confirmed")


if __name__ == "__main__":
    main()
