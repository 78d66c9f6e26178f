"""
expect: GL001 35
dynamic: confirm
source: kinds check 19, kind 1 (written for this check)

A speech-enhancement trainer sums an L1 loss over utterances with `+=`, subtracts
a "quality bonus" with `-=`, then scales with `*= 0.5` and `/= len(...)`. The bonus
is computed from `enhanced.data`, so it is wholly cut: it only shifts the loss
value. The asserts show the enhancer's gradient is bit-identical for beta = 0 and
beta = 3 (the bonus never steers training), while a connected bonus changes it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Enhancer(nn.Module):
    def __init__(self, n_freq=40):
        super().__init__()
        self.mask = nn.Sequential(nn.Linear(n_freq, 64), nn.ReLU(), nn.Linear(64, n_freq), nn.Sigmoid())

    def forward(self, noisy_spec):
        return noisy_spec * self.mask(noisy_spec)


def snr_proxy(est, ref):
    return 10 * torch.log10(ref.pow(2).sum() / (est - ref).pow(2).sum().clamp_min(1e-8))


def batch_objective(model, utterances, beta):
    loss = torch.zeros(())
    for noisy, clean in utterances:
        enhanced = model(noisy)
        loss += F.l1_loss(enhanced, clean)
        loss -= beta * snr_proxy(enhanced.data, clean)
    loss *= 0.5
    loss /= len(utterances)
    return loss


def grads(model, utterances, beta, objective=batch_objective):
    model.zero_grad(set_to_none=True)
    objective(model, utterances, beta).backward()
    return [p.grad.clone() for p in model.parameters()]


if __name__ == "__main__":
    torch.manual_seed(1)
    model = Enhancer()
    utts = [(torch.rand(20, 40) + 0.3 * torch.rand(20, 40), torch.rand(20, 40)) for _ in range(3)]
    g_off, g_on = grads(model, utts, 0.0), grads(model, utts, 3.0)
    assert all(torch.equal(a, b) for a, b in zip(g_off, g_on)), "cut bonus must be inert"

    def connected(model, utterances, beta):
        loss = torch.zeros(())
        for noisy, clean in utterances:
            enhanced = model(noisy)
            loss += F.l1_loss(enhanced, clean) - beta * snr_proxy(enhanced, clean)
        return loss / len(utterances)

    c_off, c_on = grads(model, utts, 0.0, connected), grads(model, utts, 3.0, connected)
    assert not all(torch.allclose(a, b) for a, b in zip(c_off, c_on)), "connected bonus steers"
    print("k1_bug_speech: .data bonus term adds a number only")
