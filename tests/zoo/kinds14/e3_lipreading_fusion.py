"""
expect: none
dynamic: dismiss
source: kind E

An audio-visual speech recogniser concatenates a detached lip-video branch with an audio
branch before the fusion classifier, but the video branch has its own auxiliary viseme
loss added into the same backward. The asserts show both branches and the fusion layer
receive gradients and their weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AVRecognizer(nn.Module):
    def __init__(self, n_words=10, n_visemes=6):
        super().__init__()
        self.video = nn.Sequential(nn.Linear(64, 24), nn.ReLU())
        self.audio = nn.Sequential(nn.Linear(40, 24), nn.ReLU())
        self.viseme_head = nn.Linear(24, n_visemes)
        self.fusion = nn.Linear(48, n_words)

    def forward(self, lips, mel):
        v = self.video(lips)
        fused = torch.cat([v.detach(), self.audio(mel)], dim=1)
        return self.fusion(fused), self.viseme_head(v)


torch.manual_seed(0)
model = AVRecognizer()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
lips, mel = torch.randn(16, 64), torch.randn(16, 40)
words, visemes = torch.randint(0, 10, (16,)), torch.randint(0, 6, (16,))
before = {n: p.detach().clone() for n, p in model.named_parameters()}
for _ in range(3):
    opt.zero_grad()
    word_logits, viseme_logits = model(lips, mel)
    loss = F.cross_entropy(word_logits, words) + 0.5 * F.cross_entropy(viseme_logits, visemes)
    loss.backward()
    opt.step()
for name, p in model.named_parameters():
    assert p.grad is not None, name
    assert not torch.equal(p, before[name]), name
print("e3 ok")
