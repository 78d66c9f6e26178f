"""
expect: GL001 scorer_setup.py:23
dynamic: confirm
source: kind 1

A keyword spotter (conv front end + linear classifier) is trained on random mel
spectrograms, with clip weights from a frozen scorer loaded at start-up. The loader
leaves grad mode off, and only the classifier call is wrapped in torch.enable_grad(),
so the conv output has no grad_fn: backward runs, the classifier gets .grad but
conv.weight.grad stays None. A second run with grad mode switched back on shows conv grads.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from scorer_setup import load_reference_scorer


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=20, hidden=32, n_words=5):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, kernel_size=3, padding=1)
        self.classifier = nn.Linear(hidden, n_words)


def train_step(model, scorer, opt, mel, words):
    weights = scorer(mel)
    pooled = torch.relu(model.conv(mel)).mean(-1)
    with torch.enable_grad():
        logits = model.classifier(pooled)
        per_clip = F.cross_entropy(logits, words, reduction="none")
        loss = (per_clip * weights).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    scorer = load_reference_scorer()
    torch.manual_seed(0)
    mel = torch.randn(16, 20, 40)
    words = torch.randint(0, 5, (16,))

    model = KeywordSpotter()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    conv_before = model.conv.weight.clone()
    train_step(model, scorer, opt, mel, words)
    assert model.conv.weight.grad is None
    assert model.classifier.weight.grad is not None
    assert torch.equal(model.conv.weight, conv_before)

    # reference run with recording on for the whole forward
    torch.set_grad_enabled(True)
    ref = KeywordSpotter()
    ref_opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    ref_before = ref.conv.weight.clone()
    train_step(ref, scorer, ref_opt, mel, words)
    assert ref.conv.weight.grad is not None
    assert not torch.equal(ref.conv.weight, ref_before)
    print("ok: conv front end received no gradient while grad mode was left off")


if __name__ == "__main__":
    main()
