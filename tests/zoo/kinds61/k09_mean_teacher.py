"""
expect: none
dynamic: dismiss
source: none, invented

Semi-supervised audio-clip tagging with a mean teacher on top of a frozen pretrained encoder. The forward
of `MeanTeacherTagger` has two `torch.no_grad()` regions, both intended: the first runs the frozen
pretrained frame encoder on the raw input (feature extraction at the very start of the path, weights
deliberately not trained); the second runs the EMA teacher head on a differently augmented view to produce
soft pseudo-targets for the consistency loss. The student head trains on labelled cross-entropy plus the
consistency term, and the teacher is updated only by `ema_update`. The asserts show the student head's
weights move and its loss falls, the teacher tracks the student through the EMA (it changes but never gets
a gradient), and the frozen encoder is left bit-for-bit unchanged, exactly as designed.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_TAGS = 4


class FrameEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 9, stride=4), nn.ReLU(),
            nn.Conv1d(16, 32, 5, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )

    def forward(self, wav):
        return self.conv(wav.unsqueeze(1)).squeeze(-1)


class MeanTeacherTagger(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder.eval()
        for p in self.encoder.parameters():
            p.requires_grad_(False)
        self.student = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, N_TAGS))
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters():
            p.requires_grad_(False)

    def forward(self, wav_a, wav_b):
        with torch.no_grad():
            feats_a, feats_b = self.encoder(wav_a), self.encoder(wav_b)
        student_logits = self.student(feats_a)
        with torch.no_grad():
            soft_targets = torch.softmax(self.teacher(feats_b), dim=-1)
        return student_logits, soft_targets


@torch.no_grad()
def ema_update(model, decay=0.95):
    for t, s in zip(model.teacher.parameters(), model.student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)


def synth_clips(n, length=400):
    tags = torch.randint(0, N_TAGS, (n,))
    t = torch.linspace(0, 1, length)
    freqs = torch.tensor([5.0, 13.0, 29.0, 47.0])[tags]
    wav = torch.sin(2 * 3.1416 * freqs[:, None] * t) + 0.3 * torch.randn(n, length)
    return wav, tags


def augment(wav):
    gain = 0.8 + 0.4 * torch.rand(wav.size(0), 1)
    return gain * wav + 0.1 * torch.randn_like(wav)


def main():
    encoder = FrameEncoder()  # stands in for a checkpoint loaded from disk
    model = MeanTeacherTagger(encoder)
    enc0 = [p.clone() for p in model.encoder.parameters()]
    stu0 = model.student[0].weight.detach().clone()
    tea0 = model.teacher[0].weight.clone()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    sup_hist = []
    for step in range(200):
        wav_l, tags_l = synth_clips(16)
        wav_u, _ = synth_clips(48)
        logits_l, _ = model(augment(wav_l), augment(wav_l))
        logits_u, soft = model(augment(wav_u), augment(wav_u))
        sup = F.cross_entropy(logits_l, tags_l)
        cons = F.kl_div(F.log_softmax(logits_u, -1), soft, reduction="batchmean")
        loss = sup + 0.5 * cons
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(model)
        sup_hist.append(sup.item())

    assert not torch.equal(model.student[0].weight.detach(), stu0)
    assert sum(sup_hist[-20:]) < sum(sup_hist[:20])
    assert not torch.equal(model.teacher[0].weight, tea0)
    assert all(p.grad is None for p in model.teacher.parameters())
    assert all(torch.equal(a, p) for a, p in zip(enc0, model.encoder.parameters()))
    print("k09: student trains, teacher follows by EMA, frozen encoder untouched")


if __name__ == "__main__":
    main()
