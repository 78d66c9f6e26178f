"""
expect: GL001 picker.py:41
dynamic: confirm
source: none, invented

Seismology. A Lightning-style phase picker (picker.py) classifies 3-component
seismometer windows as noise / P arrival / S arrival. Its ``forward`` is decorated
``@torch.no_grad()`` because the station pipeline calls it to export embeddings,
but ``training_step`` calls ``self.forward(waveforms)`` to get the features it feeds
to the linear head. The trainer (lightning_stub.Trainer) does the backward, so
nothing raises: only the head is trained and the convolutional encoder stays at its
random initialisation. The asserts show the encoder's weights are bit-identical
after fitting (and have no grads) while the head moved, and that a variant whose
training_step runs the encoder itself updates the encoder and lowers the loss.
"""
import copy

import torch
from torch.utils.data import DataLoader, TensorDataset

from lightning_stub import Trainer
from picker import PhasePicker


def synthetic_windows(n_per_class=64, n_samples=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n_samples)
    waves, labels = [], []
    for label in range(3):
        for _ in range(n_per_class):
            w = 0.3 * torch.randn(3, n_samples, generator=g)
            onset = int(torch.randint(20, 90, (1,), generator=g))
            env = torch.zeros(n_samples)
            env[onset:] = torch.exp(-8 * (t[onset:] - t[onset]))
            if label == 1:  # P: high frequency, vertical component
                w[0] += 3.0 * env * torch.sin(2 * torch.pi * 30 * t)
            elif label == 2:  # S: lower frequency, horizontal components
                w[1:] += 3.0 * env * torch.sin(2 * torch.pi * 8 * t)
            waves.append(w)
            labels.append(label)
    return torch.stack(waves), torch.tensor(labels)


class EndToEndPicker(PhasePicker):
    """Fixed variant: training_step runs the encoder with autograd on."""

    def training_step(self, batch, batch_idx):
        waveforms, phase = batch
        logits = self.head(self.encoder(self._standardize(waveforms)))
        loss = torch.nn.functional.cross_entropy(logits, phase)
        self.log("train/loss", loss)
        return loss


def main():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    waves, labels = synthetic_windows()
    loader = DataLoader(TensorDataset(waves, labels), batch_size=32, shuffle=True)

    # --- buggy path: as shipped ---
    picker = PhasePicker()
    enc_before = copy.deepcopy(picker.encoder.state_dict())
    head_before = picker.head.weight.detach().clone()
    Trainer(max_epochs=3).fit(picker, loader)

    for name, p in picker.encoder.named_parameters():
        assert torch.equal(p.detach(), enc_before[name]), f"encoder param {name} moved"
        assert p.grad is None, "encoder never receives a gradient"
    assert not torch.equal(picker.head.weight.detach(), head_before), "head did train"
    print("buggy: encoder frozen, head trained; last loss %.3f" % picker.logged_metrics["train/loss"][-1])

    # --- fixed variant ---
    torch.manual_seed(0)
    fixed = EndToEndPicker()
    enc_w0 = fixed.encoder.conv[0].weight.detach().clone()
    Trainer(max_epochs=3).fit(fixed, loader)
    assert not torch.equal(fixed.encoder.conv[0].weight.detach(), enc_w0), "encoder trains when fixed"
    assert fixed.encoder.conv[0].weight.grad is not None
    losses = fixed.logged_metrics["train/loss"]
    assert sum(losses[-3:]) / 3 < sum(losses[:3]) / 3, "fixed picker learns"
    print("fixed: encoder trained; loss %.3f -> %.3f" % (losses[0], losses[-1]))


if __name__ == "__main__":
    main()
