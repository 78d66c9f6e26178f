"""
expect: GL001 spotter.py:17
dynamic: confirm
source: none, invented

Audio / keyword spotting. KeywordSpotter has a learnable Conv1d filterbank (randomly
initialised, meant to be trained) followed by a log-energy pooling and a small
classifier. Its `frontend` method wraps its whole body in `with torch.no_grad():`
(the author thought of the front end as "feature extraction"), so the filterbank
output carries no graph. `step_loss` classifies from it, and loop.run_training
backpropagates and steps SGD over every parameter of the model: the filterbank is
never trained. The asserts show the filterbank's grad stays None and its weights do
not move while the classifier's do, and that with the `with` block removed the
filterbank gets gradients and changes.
"""
import torch

from data import batches, synth_clips
from loop import run_training
from spotter import KeywordSpotter

CONFIG = {"lr": 0.05, "epochs": 4}


class RecordedFrontendSpotter(KeywordSpotter):
    def frontend(self, wave):
        x = self.filterbank(wave.unsqueeze(1))
        return torch.log1p(x.pow(2).mean(dim=-1))


def main():
    wave, label = synth_clips()
    loader = batches(wave, label)

    torch.manual_seed(1)
    model = KeywordSpotter()
    fb_before = model.filterbank.weight.detach().clone()
    cls_before = model.classifier[0].weight.detach().clone()
    losses = run_training(model, loader, CONFIG)
    assert model.filterbank.weight.grad is None
    assert model.filterbank.bias.grad is None
    assert torch.equal(model.filterbank.weight.detach(), fb_before)
    assert not torch.equal(model.classifier[0].weight.detach(), cls_before)
    print(f"buggy: first {losses[0]:.3f} last {losses[-1]:.3f}")

    torch.manual_seed(1)
    fixed = RecordedFrontendSpotter()
    fixed_losses = run_training(fixed, loader, CONFIG)
    assert fixed.filterbank.weight.grad is not None
    assert fixed.filterbank.weight.grad.abs().sum() > 0
    assert not torch.equal(fixed.filterbank.weight.detach(), fb_before)
    print(f"fixed: first {fixed_losses[0]:.3f} last {fixed_losses[-1]:.3f}")
    assert fixed_losses[-1] < losses[-1]
    print("OK")


if __name__ == "__main__":
    main()
