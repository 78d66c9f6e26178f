"""
expect: GL005 trainer.py:22
dynamic: confirm
source: https://github.com/liaohaofu/adn/issues/21

ADN (artifact disentanglement network) learns CT metal-artifact reduction from
unpaired images, CycleGAN style. In its optimize() the adversarial criterion runs the
discriminator once and registers two losses: the generator's adversarial term (through
the discriminator on the non-detached output) and the discriminator term (on the
detached output). It then calls the discriminator trainer's _update() - backward plus
optimizer.step() - and only afterwards the generator trainer's _update(). The step
edits the discriminator's conv weights in place, but the generator loss still has to
backpropagate through the discriminator graph that saved those weights, so on
PyTorch >= 1.5 users got "one of the variables needed for gradient computation has
been modified by an inplace operation" (older versions silently used the updated
weights). This reduction keeps the same split: a Trainer class whose _update() does
backward + step, and a GanLoss that feeds both trainers from one forward. The asserts
catch the RuntimeError in the original order and show the generator never got
updated; updating the generator first (its backward runs before the discriminator
weights change) trains both networks without error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import Trainer, GanLoss

torch.manual_seed(0)
torch.set_num_threads(1)


def artifact_remover():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 1, 3, padding=1))


def patch_discriminator():
    return nn.Sequential(
        nn.Conv2d(1, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
        nn.Conv2d(8, 1, 4, stride=2, padding=1))


def make_batch(n=4, size=16):
    clean = torch.randn(n, 1, size, size)
    streaks = torch.zeros_like(clean)
    streaks[:, :, ::4, :] = 2.0            # fake metal streaks
    with_artifact = torch.randn(n, 1, size, size) + streaks
    return with_artifact, clean            # unpaired


def build():
    torch.manual_seed(0)
    model_g = Trainer(artifact_remover())
    model_dh = Trainer(patch_discriminator())
    gan_h = GanLoss(model_g, model_dh, "gh")
    return model_g, model_dh, gan_h


def optimize(model_g, model_dh, gan_h, img_low, img_high, generator_first):
    model_g._clear()
    model_dh._clear()
    pred_lh = img_low - model_g.net(img_low)   # predicted artifact-free image
    gan_h(pred_lh, img_high)
    model_g._add("ll", 0.1 * F.l1_loss(pred_lh, img_low))
    if generator_first:
        model_g._update()
        model_dh._update()
    else:
        model_dh._update()
        model_g._update()


def snapshot(net):
    return [p.detach().clone() for p in net.parameters()]


def changed(net, before):
    return any(not torch.equal(p.detach(), b) for p, b in zip(net.parameters(), before))


def main():
    img_low, img_high = make_batch()

    model_g, model_dh, gan_h = build()
    g0, d0 = snapshot(model_g.net), snapshot(model_dh.net)
    try:
        optimize(model_g, model_dh, gan_h, img_low, img_high, generator_first=False)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised
    assert changed(model_dh.net, d0), "discriminator was stepped before the failure"
    assert not changed(model_g.net, g0), "generator never got its update"

    model_g, model_dh, gan_h = build()
    g0, d0 = snapshot(model_g.net), snapshot(model_dh.net)
    for _ in range(3):
        optimize(model_g, model_dh, gan_h, img_low, img_high, generator_first=True)
    assert changed(model_g.net, g0) and changed(model_dh.net, d0)

    print("D-then-G order: in-place error caught, generator untouched")
    print("G-then-D order: both networks trained")


if __name__ == "__main__":
    main()
