"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 1

Same keyword-spotting setup: the CMVN callback passed to train_step records the
mean frame energy from a detached copy for logging, but normalises and returns
the live features, so gradients flow through it into the conv front-end and
every parameter trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_KEYWORDS = 4


class ConvFrontEnd(nn.Module):
    def __init__(self, n_filters=8, n_frames=16):
        super().__init__()
        self.conv = nn.Conv1d(1, n_filters, kernel_size=9, stride=4)
        self.pool = nn.AdaptiveAvgPool1d(n_frames)

    def forward(self, wave):
        x = F.relu(self.conv(wave.unsqueeze(1)))
        return self.pool(x)


class UtteranceCMVN:
    def __init__(self):
        self.energy_log = []

    def __call__(self, feats):
        self.energy_log.append(feats.detach().pow(2).mean().item())
        mean = feats.mean(dim=-1, keepdim=True)
        std = feats.std(dim=-1, keepdim=True).clamp_min(1e-5)
        return (feats - mean) / std


def train_step(frontend, classifier, optimizer, wave, labels, normalise, criterion):
    frontend.train()
    feats = normalise(frontend(wave))
    logits = classifier(feats.flatten(1))
    loss = criterion(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    frontend = ConvFrontEnd()
    classifier = nn.Linear(8 * 16, N_KEYWORDS)
    params = list(frontend.parameters()) + list(classifier.parameters())
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    normalise = UtteranceCMVN()

    wave = torch.randn(6, 400)
    labels = torch.randint(0, N_KEYWORDS, (6,))

    conv_before = frontend.conv.weight.detach().clone()
    head_before = classifier.weight.detach().clone()
    for _ in range(3):
        train_step(frontend, classifier, optimizer, wave, labels,
                   normalise, F.cross_entropy)

    assert frontend.conv.weight.grad is not None
    assert frontend.conv.weight.grad.abs().sum() > 0
    assert not torch.equal(frontend.conv.weight, conv_before)
    assert not torch.equal(classifier.weight, head_before)
    assert len(normalise.energy_log) == 3
    print("OK")


if __name__ == "__main__":
    main()
