"""
expect: GL005 main.py:33
dynamic: confirm
source: https://github.com/ZhikangNiu/encodec-pytorch/issues/6

One training step of a GAN-trained neural audio codec, in the order of the report's training
script: the discriminator runs on the real waveform, then (once warm-up is over) it is trained
first - its loss is backpropagated with retain_graph=True and opt_d.step() updates its weights in
place - and only afterwards the generator loss is formed from the same real-branch feature maps
(feature matching) and backpropagated. The real-branch graph saved the
discriminator's old weights, so the generator backward stops with "modified by an inplace
operation" (the error in the issue). The maintainers fixed it by stepping the generator first and
training the discriminator afterwards on detached generator output; the asserts show the error
for the reported order and a working step, with codec gradients, for the fixed order.
"""
import torch

from codec import TinyCodec, WaveDiscriminator, disc_loss, total_loss

torch.manual_seed(0)
torch.set_num_threads(1)


def train_one_step_reported(model, disc, opt_g, opt_d, wav, train_disc=True):
    opt_g.zero_grad()
    opt_d.zero_grad()
    output, loss_w = model(wav)
    logits_real, fmap_real = disc(wav)
    if train_disc:
        logits_fake, _ = disc(output.detach())
        loss_disc = disc_loss(logits_real, logits_fake)
        loss_disc.backward(retain_graph=True)
        opt_d.step()
    logits_fake, fmap_fake = disc(output)
    loss = total_loss(fmap_real, logits_fake, fmap_fake, wav, output) + loss_w
    loss.backward()
    opt_g.step()


def train_one_step_fixed(model, disc, opt_g, opt_d, wav, train_disc=True):
    opt_g.zero_grad()
    opt_d.zero_grad()
    output, loss_w = model(wav)
    logits_real, fmap_real = disc(wav)
    logits_fake, fmap_fake = disc(output)
    loss = total_loss(fmap_real, logits_fake, fmap_fake, wav, output) + loss_w
    loss.backward()
    opt_g.step()
    if train_disc:
        opt_d.zero_grad()
        logits_real, _ = disc(wav)  # fresh real pass with the current weights
        logits_fake, _ = disc(output.detach())
        loss_disc = disc_loss(logits_real, logits_fake)
        loss_disc.backward()
        opt_d.step()


def make():
    torch.manual_seed(1)
    model, disc = TinyCodec(), WaveDiscriminator()
    return (model, disc, torch.optim.Adam(model.parameters(), 1e-3),
            torch.optim.Adam(disc.parameters(), 1e-3))


wav = torch.randn(4, 1, 64)

model, disc, opt_g, opt_d = make()
raised = False
try:
    train_one_step_reported(model, disc, opt_g, opt_d, wav)
except RuntimeError as err:
    raised = "inplace operation" in str(err)
assert raised, "generator backward must hit the discriminator weights changed by opt_d.step()"

model, disc, opt_g, opt_d = make()
before = model.encoder[0].weight.detach().clone()
d_before = disc.out.weight.detach().clone()
for _ in range(3):
    train_one_step_fixed(model, disc, opt_g, opt_d, wav)
assert model.encoder[0].weight.grad is not None
assert not torch.equal(before, model.encoder[0].weight)
assert not torch.equal(d_before, disc.out.weight)
print("reported order: in-place error; fixed order: codec and discriminator both updated")
