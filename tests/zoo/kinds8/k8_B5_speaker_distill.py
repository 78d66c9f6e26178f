"""expect: none
dynamic: dismiss
source: kinds8 (kind B)

The projector is run under no_grad to build the teacher target, but it is also
applied with grad on to the student features, so it still gets a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MelEncoder(nn.Module):
    def __init__(self, n_mels=10, d=12):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, d, 5, padding=2)
        self.requires_grad_(False)

    def forward(self, mel):
        return torch.relu(self.conv(mel)).mean(-1)


class SpeakerDistiller(nn.Module):
    def __init__(self, n_mels=10, d=12):
        super().__init__()
        self.teacher = MelEncoder(n_mels, d)
        self.student = nn.Conv1d(n_mels, d, 3, padding=1)
        self.projector = nn.Linear(d, d)

    def distill_loss(self, mel):
        with torch.no_grad():
            t_feat = self.teacher(mel)
            target = self.projector(t_feat)
        s_feat = torch.relu(self.student(mel)).mean(-1)
        pred = self.projector(s_feat)
        return F.mse_loss(pred, target)


def main():
    torch.manual_seed(0)
    dist = SpeakerDistiller()
    opt = torch.optim.Adam(filter(lambda w: w.requires_grad, dist.parameters()), lr=1e-3)
    mel = torch.randn(3, 10, 20)
    opt.zero_grad()
    loss = dist.distill_loss(mel)
    loss.backward()
    opt.step()
    for name, w in dist.named_parameters():
        if w.requires_grad:
            assert w.grad is not None, name
        else:
            assert w.grad is None, name
    assert dist.projector.weight.grad is not None
    print("OK")


if __name__ == "__main__":
    main()
