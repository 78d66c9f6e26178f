"""
expect: GL001 24
dynamic: confirm
source: kind 1

A keyword-spotting model normalises frames with a RunningCMVN submodule whose
forward is decorated @torch.no_grad() (written to update running statistics).
The model applies it to the output of its own trainable frame encoder, so the
encoder gets no gradient. The asserts show encoder.weight.grad stays None and
its weights never change, while the same model with the statistics update
isolated in a no_grad helper trains the encoder.
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


class IsolatedCMVN(RunningCMVN):
    @torch.no_grad()
    def _update(self, x):
        self.mean.lerp_(x.mean(dim=(0, 1)), self.momentum)
        self.var.lerp_(x.var(dim=(0, 1)), self.momentum)

    def forward(self, x):
        if self.training:
            self._update(x)
        return (x - self.mean) / (self.var + 1e-5).sqrt()


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_words=10, norm_cls=RunningCMVN):
        super().__init__()
        self.encoder = nn.Linear(n_mels, hidden)
        self.cmvn = norm_cls(hidden)
        self.classifier = nn.Linear(hidden, n_words)

    def forward(self, mels):  # mels: (batch, frames, n_mels)
        frames = torch.tanh(self.encoder(mels))
        frames = self.cmvn(frames)
        return self.classifier(frames.mean(dim=1))


def train(norm_cls, steps=20):
    torch.manual_seed(0)
    model = KeywordSpotter(norm_cls=norm_cls)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model.encoder.weight.detach().clone()
    mels, words = torch.randn(32, 50, 40), torch.randint(0, 10, (32,))
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(mels), words)
        loss.backward()
        grad = model.encoder.weight.grad
        opt.step()
    return model, before, grad


if __name__ == "__main__":
    model, before, grad = train(RunningCMVN)
    assert grad is None, "encoder should be cut off by the no_grad forward"
    assert torch.equal(model.encoder.weight, before)
    assert model.classifier.weight.grad is not None

    fixed, before_f, grad_f = train(IsolatedCMVN)
    assert grad_f is not None and grad_f.abs().sum() > 0
    assert not torch.equal(fixed.encoder.weight, before_f)
    print("ok: encoder starved by @torch.no_grad() CMVN; fixed variant trains")
