"""
expect: GL001 26
dynamic: confirm
source: kind 5

A keyword-spotting trainer is handed an acoustic classifier, builds an
optimizer over its own parameters (the classifier plus a temperature), but its
forward returns self.classifier(feats).detach() divided by the temperature.
Only the temperature trains; the classifier, which the optimizer is meant to
fit, never gets a gradient. The asserts show its grads stay None and its
weights unchanged, while the same trainer without the detach learns.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordTrainer(nn.Module):
    def __init__(self, classifier, lr=0.1):
        super().__init__()
        self.classifier = classifier
        self.log_temp = nn.Parameter(torch.zeros(()))
        self.opt = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, feats):
        logits = self.classifier(feats).detach()
        return logits / self.log_temp.exp()

    def train_step(self, feats, labels):
        loss = F.cross_entropy(self(feats), labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class FixedKeywordTrainer(KeywordTrainer):
    def forward(self, feats):
        return self.classifier(feats) / self.log_temp.exp()


def make_classifier(n_mfcc=13, n_words=4):
    return nn.Sequential(nn.Flatten(), nn.Linear(n_mfcc * 20, 32), nn.ReLU(), nn.Linear(32, n_words))


def run(trainer_cls):
    torch.manual_seed(0)
    clf = make_classifier()
    trainer = trainer_cls(clf)
    w0 = clf[1].weight.detach().clone()
    templates = torch.randn(4, 13, 20)
    for _ in range(50):
        labels = torch.randint(0, 4, (32,))
        feats = templates[labels] + 0.5 * torch.randn(32, 13, 20)
        trainer.train_step(feats, labels)
    return clf, w0, trainer


if __name__ == "__main__":
    clf, w0, trainer = run(KeywordTrainer)
    assert all(p.grad is None for p in clf.parameters())
    assert torch.equal(w0, clf[1].weight.detach())
    assert trainer.log_temp.grad is not None  # only the temperature moved

    clf, w0, _ = run(FixedKeywordTrainer)
    assert clf[1].weight.grad is not None
    assert not torch.equal(w0, clf[1].weight.detach())
    print("ok: detached logits freeze the classifier; attached logits train it")
