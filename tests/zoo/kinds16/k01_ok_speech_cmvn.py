"""
expect: none
dynamic: dismiss
source: kind 1

A speech command classifier normalises raw log-mel input with a RunningCMVN
submodule whose forward is decorated @torch.no_grad(). It is applied only to
the raw input features, before any trainable layer, so cutting the graph
there costs nothing. The asserts show every trainable layer gets a gradient,
the weights move and the loss drops.
"""
import torch
import torch.nn as nn


class RunningCMVN(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("var", torch.ones(dim))

    @torch.no_grad()
    def forward(self, x):
        if self.training:
            self.mean.lerp_(x.mean(dim=(0, 1)), self.momentum)
            self.var.lerp_(x.var(dim=(0, 1)), self.momentum)
        return (x - self.mean) / (self.var + 1e-5).sqrt()


class CommandClassifier(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_cmds=12):
        super().__init__()
        self.cmvn = RunningCMVN(n_mels)
        self.encoder = nn.Linear(n_mels, hidden)
        self.classifier = nn.Linear(hidden, n_cmds)

    def forward(self, log_mels):  # (batch, frames, n_mels)
        feats = self.cmvn(log_mels)
        frames = torch.tanh(self.encoder(feats))
        return self.classifier(frames.mean(dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CommandClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    log_mels = torch.randn(32, 50, 40) * 3 + 1
    cmds = torch.randint(0, 12, (32,))
    before = model.encoder.weight.detach().clone()
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(log_mels), cmds)
        loss.backward()
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(model.encoder.weight, before)
    assert losses[-1] < 0.5 * losses[0], losses
    assert model.cmvn.mean.abs().sum() > 0  # statistics were tracked
    print("ok: no_grad CMVN on raw input, all layers train")
