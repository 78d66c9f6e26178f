"""
expect: none
dynamic: dismiss
source: https://github.com/shs2783/Speech-Enhancement/blob/4593b4cf83e788e905685fe9e85747b44255599f/trainer.py#L214

This speech-enhancement trainer calls `loss.requires_grad_(True)` right before `loss.backward()`
in `_update_parameters`, the line people usually add to silence "element 0 of tensors does not
require grad" after they broke the graph. Here it is harmless. `predict` runs the model under
torch.no_grad() only for validation, and `_update_parameters` returns before the switch when
`is_train` is False, so the switch only ever runs on the training path, where the SI-SNR loss is
computed from the model's estimate and already has a grad_fn; flipping requires_grad on a tensor
that already requires grad changes nothing. The reduction trains a tiny 1-D convolutional masking
denoiser on random "speech" (sums of sinusoids) mixed with white noise. The asserts check that the
training loss already has a history when the switch is reached, that a validation pass leaves
every weight unchanged, and that training raises the SI-SNR on held-out mixtures.
"""
import copy

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def si_snr_loss(estimate, target, eps=1e-8):
    estimate = estimate - estimate.mean(dim=1, keepdim=True)
    target = target - target.mean(dim=1, keepdim=True)
    s_target = (estimate * target).sum(1, keepdim=True) * target / (target.pow(2).sum(1, keepdim=True) + eps)
    e_noise = estimate - s_target
    ratio = s_target.pow(2).sum(1) / (e_noise.pow(2).sum(1) + eps)
    return -torch.mean(10 * torch.log10(ratio + eps))


class MaskDenoiser(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, channels, 9, padding=4), nn.ReLU(),
                                 nn.Conv1d(channels, channels, 9, padding=4), nn.ReLU(),
                                 nn.Conv1d(channels, 1, 9, padding=4))

    def forward(self, mix):
        estimate = self.net(mix.unsqueeze(1)).squeeze(1)
        return estimate.abs().mean(), estimate


class Trainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.clip_norm = 5.0
        self.train_losses_had_history = []

    def predict(self, mix_wav, is_train):
        if is_train:
            estimate_spec, estimate_wav = self.model(mix_wav)
        else:
            with torch.no_grad():
                estimate_spec, estimate_wav = self.model(mix_wav)
        return estimate_spec, estimate_wav

    def learn(self, batches, is_train=True):
        self.model.train(is_train)
        total = 0.0
        for mix_wav, clean_wav in batches:
            _, estimate_wav = self.predict(mix_wav, is_train)
            loss = si_snr_loss(estimate_wav, clean_wav)
            total += loss.item()
            if is_train:
                self.train_losses_had_history.append(loss.grad_fn is not None)
            self._update_parameters(loss, is_train)
        return total / len(batches)

    def _update_parameters(self, loss, is_train):
        if not is_train:
            return
        loss.requires_grad_(True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()


def make_batches(n_batches, batch_size=8, length=256):
    t = torch.arange(length).float()
    batches = []
    for _ in range(n_batches):
        freqs = 0.02 + 0.2 * torch.rand(batch_size, 3, 1)
        amps = torch.rand(batch_size, 3, 1)
        clean = (amps * torch.sin(freqs * t)).sum(1)
        mix = clean + 0.5 * torch.randn(batch_size, length)
        batches.append((mix, clean))
    return batches


def main():
    train_set, val_set = make_batches(8), make_batches(3)
    trainer = Trainer(MaskDenoiser())

    snapshot = copy.deepcopy(trainer.model.state_dict())
    val_before = trainer.learn(val_set, is_train=False)
    for key, value in trainer.model.state_dict().items():
        assert torch.equal(value, snapshot[key]), key

    for _ in range(25):
        trainer.learn(train_set, is_train=True)
    val_after = trainer.learn(val_set, is_train=False)

    assert trainer.train_losses_had_history and all(trainer.train_losses_had_history)
    assert val_after < val_before - 3.0, (val_before, val_after)
    print(f"validation SI-SNR {-val_before:.2f} dB -> {-val_after:.2f} dB")


if __name__ == "__main__":
    main()
