"""
expect: none
dynamic: dismiss
source: https://github.com/speechbrain/speechbrain/issues/1492

Speech enhancement with MetricGAN+. The quality metric (PESQ in the recipe) is not
differentiable: it is computed on NumPy arrays and comes back with `torch.tensor(...)`.
That looks like a loss rebuilt outside autograd, but here the rebuilt value is only the
regression target of the discriminator, which learns to imitate the metric; the generator
is trained through the discriminator's prediction, a fully differentiable path. The
enhanced signal is detached when D is fitted, and D's stray gradients from the generator
pass are zeroed before D's next step (the point the issue raised, then withdrew). The
asserts check the generator receives gradient through D, that D's target carries none, and
that alternating training raises the true (NumPy) metric of the enhanced signal.
"""
import numpy as np
import torch

from metricgan_brain import MetricGANBrain, quality_metric

torch.manual_seed(0)
torch.set_num_threads(1)

N_BINS = 32
clean_bank = torch.rand(256, N_BINS) * torch.linspace(1.0, 0.2, N_BINS)


def batch(b=32):
    idx = torch.randint(0, len(clean_bank), (b,))
    clean = clean_bank[idx]
    noisy = clean + 0.4 * torch.rand(b, N_BINS)
    return noisy, clean


def true_quality(brain):
    noisy, clean = batch(128)
    with torch.no_grad():
        enh = brain.generator(noisy)
    return float(np.mean(quality_metric(enh.numpy(), clean.numpy())))


brain = MetricGANBrain(N_BINS)
noisy, clean = batch()
tgt = brain.target_scores(noisy, clean)
assert not tgt.requires_grad
enhanced = brain.generator(noisy)
est = brain.discriminator(enhanced, clean)
g = torch.autograd.grad(est.sum(), brain.generator.net[0].weight)[0]
assert g.abs().sum() > 0

q0 = true_quality(brain)
for epoch in range(300):
    for _ in range(3):
        noisy, clean = batch()
        brain.fit_discriminator(noisy, clean)
    noisy, clean = batch()
    brain.fit_generator(noisy, clean)
q1 = true_quality(brain)
print(f"metric of enhanced speech {q0:.3f} -> {q1:.3f}")
assert q1 > q0 + 0.05
