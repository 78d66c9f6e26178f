"""
expect: GL001 33
dynamic: confirm
source: kinds check 10, kind 1

A keyword-spotting model: a conv front-end turns raw audio into features, a
per-utterance CMVN callback handed to train_step normalises them, and a linear
classifier scores them. The callback works on `feats.detach()`, so the loss has
no path back into the front-end: its conv weights never get a gradient while
the classifier trains normally.
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


def cmvn(feats):
    x = feats.detach()
    mean = x.mean(dim=-1, keepdim=True)
    std = x.std(dim=-1, keepdim=True).clamp_min(1e-5)
    return (x - mean) / std


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

    wave = torch.randn(6, 400)
    labels = torch.randint(0, N_KEYWORDS, (6,))

    conv_before = frontend.conv.weight.detach().clone()
    head_before = classifier.weight.detach().clone()
    losses = []
    for _ in range(3):
        losses.append(train_step(frontend, classifier, optimizer, wave, labels,
                                 cmvn, F.cross_entropy))

    assert frontend.conv.weight.grad is None
    assert frontend.conv.bias.grad is None
    assert torch.equal(frontend.conv.weight, conv_before)
    assert classifier.weight.grad is not None
    assert not torch.equal(classifier.weight, head_before)
    print("losses", [round(l, 4) for l in losses])
    print("OK")


if __name__ == "__main__":
    main()
