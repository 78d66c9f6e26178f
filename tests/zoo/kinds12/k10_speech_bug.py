"""
expect: GL001 24
dynamic: confirm
source: kind 10

A speech-command pipeline has a learnable filterbank front end (a 1-D convolution over the
waveform) whose forward returns its output with .detach(), followed by a classifier; both
are in one optimizer. The classifier term backpropagates, but the graph stops at the front
end's output, so the filterbank's .grad is None and its weights never change. The same
pipeline without the cut trains the filterbank.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnableFilterbank(nn.Module):
    def __init__(self, bands=12, width=25, hop=10):
        super().__init__()
        self.filters = nn.Conv1d(1, bands, width, stride=hop)

    def forward(self, wave):
        energy = torch.log1p(self.filters(wave[:, None]).pow(2))
        return energy.detach()


class LogEnergyFilterbank(LearnableFilterbank):
    def forward(self, wave):
        return torch.log1p(self.filters(wave[:, None]).pow(2))


class CommandClassifier(nn.Module):
    def __init__(self, bands=12, commands=6):
        super().__init__()
        self.conv = nn.Conv1d(bands, 16, 3, padding=1)
        self.out = nn.Linear(16, commands)

    def forward(self, feats):
        return self.out(F.relu(self.conv(feats)).mean(-1))


def train(frontend_cls, steps=3):
    torch.manual_seed(0)
    frontend, classifier = frontend_cls(), CommandClassifier()
    opt = torch.optim.Adam(list(frontend.parameters()) + list(classifier.parameters()), lr=1e-2)
    wave = torch.randn(8, 1600)
    commands = torch.randint(0, 6, (8,))
    before = frontend.filters.weight.clone()
    for _ in range(steps):
        loss = F.cross_entropy(classifier(frontend(wave)), commands)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return frontend, before


def main():
    frontend, before = train(LearnableFilterbank)
    assert frontend.filters.weight.grad is None
    assert torch.equal(frontend.filters.weight, before)
    frontend, before = train(LogEnergyFilterbank)
    assert not torch.equal(frontend.filters.weight, before)
    print("ok: filterbank never trained behind the detached output")


if __name__ == "__main__":
    main()
