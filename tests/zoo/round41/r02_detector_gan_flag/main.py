"""
expect: GL003 engine.py:28, GL003 engine.py:30, GL003 engine.py:32
dynamic: confirm
source: https://github.com/WatChMaL/CNN/blob/47eb55fafca02949160790566fcbdfeac46d8387/training_utils/engine_gan.py

A GAN for water-Cherenkov detector charge maps keeps the generator and discriminator in one
module; the engine's forward() takes the discriminator scores for fake and real events and
detaches them, builds the three BCE losses from those detached scores, and then, because
backward() would fail with "element 0 of tensors does not require grad", flips
requires_grad = True on each loss when it is False. The flags make backward() run, but each
loss is now a fresh leaf with no history: no gradient reaches any generator or
discriminator weight, Adam steps on None gradients and nothing moves. The asserts run one
training iteration and check that every parameter has grad None and is unchanged; the usual update (discriminator
on detached fakes, generator on attached fakes, as in the repository's later engine) gives
both nets gradients and moves them.
"""
import copy

import torch

from engine import EngineGAN
from model import GeneratorDiscriminator

torch.manual_seed(0)
torch.set_num_threads(1)

events = torch.rand(16, 1, 8, 8) * 2 - 1

model = GeneratorDiscriminator()
before = copy.deepcopy(model.state_dict())
engine = EngineGAN(model)
logs = engine.forward(events)
assert engine.g_loss.is_leaf and engine.g_loss.grad_fn is None
engine.backward()
assert all(p.grad is None for p in model.parameters()), "a weight received a gradient"
after = model.state_dict()
assert all(torch.equal(before[k], after[k]) for k in before), "a weight moved"


def fixed_step(model, data, opt_G, opt_D):
    """Intended update (as in the repository's later engine): D on detached fakes, then G."""
    crit = torch.nn.BCEWithLogitsLoss()
    ones, zeros = torch.ones(data.shape[0], 1), torch.zeros(data.shape[0], 1)
    fake = model.generator(torch.randn(data.shape[0], 16, 1, 1))
    opt_D.zero_grad()
    d_loss = crit(model.discriminator(data), ones) + crit(model.discriminator(fake.detach()), zeros)
    d_loss.backward()
    opt_D.step()
    opt_G.zero_grad()
    g_loss = crit(model.discriminator(fake), ones)
    g_loss.backward()
    opt_G.step()
    return g_loss


model_ok = GeneratorDiscriminator()
before_ok = copy.deepcopy(model_ok.state_dict())
ref = EngineGAN(model_ok)
g_loss_ok = fixed_step(model_ok, events, ref.optimizer_G, ref.optimizer_D)
assert g_loss_ok.grad_fn is not None
assert all(p.grad is not None for p in model_ok.discriminator.parameters())
assert all(p.grad is not None for p in model_ok.generator.parameters())
moved = [k for k in before_ok if not torch.equal(before_ok[k], model_ok.state_dict()[k])]
assert any(k.startswith("generator") for k in moved) and any(k.startswith("discriminator") for k in moved)

print(f"flagged losses g={logs['g_loss']:.3f} d={logs['d_loss']:.3f}: 0 parameters updated")
print(f"usual update: {len(moved)} parameter tensors updated")
