"""
expect: none
dynamic: dismiss
source: kinds check 44, kind 2

A script trains a MetricGAN-style enhancer (enhance_trainer.py) on random
magnitude spectrograms. Each iteration calls `trainer.forward_pass(...)`, which stores
the enhanced output and the discriminator's predicted quality of it in attributes, then
`trainer.update_disc()`, which steps the discriminator's optimizer, then calls
`trainer.forward_pass(...)` again so that `trainer.update_enhancer()` backpropagates
through a quality score computed by the already-updated discriminator. The asserts check
that all iterations run, that both networks' parameters change, and that the enhancer's
reconstruction error goes down.
"""
import torch
import torch.nn.functional as F

from enhance_trainer import EnhancementTrainer

torch.manual_seed(4)
N_FREQ, FRAMES, BATCH = 40, 20, 8
clean = torch.rand(BATCH, FRAMES, N_FREQ)
noisy = clean + 0.4 * torch.rand(BATCH, FRAMES, N_FREQ)

trainer = EnhancementTrainer(N_FREQ)
enh_before = [p.detach().clone() for p in trainer.enhancer.parameters()]
disc_before = [p.detach().clone() for p in trainer.disc.parameters()]
with torch.no_grad():
    err_before = F.l1_loss(trainer.enhancer(noisy), clean).item()

steps = 0
for epoch in range(40):
    trainer.forward_pass(noisy, clean)
    trainer.update_disc()
    trainer.forward_pass(noisy, clean)  # refresh with the updated discriminator
    trainer.update_enhancer()
    steps += 1

with torch.no_grad():
    err_after = F.l1_loss(trainer.enhancer(noisy), clean).item()

assert steps == 40
assert any(not torch.equal(a, p) for a, p in zip(enh_before, trainer.enhancer.parameters()))
assert any(not torch.equal(a, p) for a, p in zip(disc_before, trainer.disc.parameters()))
assert err_after < err_before
print(f"enhancer L1 {err_before:.3f} -> {err_after:.3f}")
