"""expect: GL001 24
dynamic: confirm
source: https://github.com/jolibrain/joliGEN/pull/20

An unpaired image-to-image GAN adds a semantic-consistency loss: a frozen
segmenter f_s labels the translated image and is compared with the source
labels. To get rid of an in-place error the PR detached the fake image before
feeding it to f_s; a reviewer pointed out that this makes the semantic loss
useless, since it can no longer reach the generator, and the error was fixed
differently in a later PR.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SemanticConsistency:
    def __init__(self, f_s):
        self.f_s = f_s
        for p in self.f_s.parameters():
            p.requires_grad_(False)

    def __call__(self, fake_b, labels_a):
        pred_fake = self.f_s(fake_b.detach())
        return F.cross_entropy(pred_fake, labels_a)


class GeneratorObjective:
    def __init__(self, gen, disc, sem, lambda_sem=1.0):
        self.gen, self.disc, self.sem = gen, disc, sem
        self.lambda_sem = lambda_sem

    def loss(self, real_a, labels_a, with_sem=True):
        fake_b = self.gen(real_a)
        d_out = self.disc(fake_b)
        loss_gan = F.binary_cross_entropy_with_logits(d_out, torch.ones_like(d_out))
        if with_sem:
            loss_gan = loss_gan + self.lambda_sem * self.sem(fake_b, labels_a)
        return loss_gan


if __name__ == "__main__":
    torch.manual_seed(0)
    gen, disc, f_s = nn.Linear(6, 6), nn.Linear(6, 1), nn.Linear(6, 3)
    obj = GeneratorObjective(gen, disc, SemanticConsistency(f_s))
    a, labels = torch.randn(10, 6), torch.randint(0, 3, (10,))

    obj.loss(a, labels, True).backward()
    g_with = gen.weight.grad.clone()
    gen.zero_grad()
    obj.loss(a, labels, False).backward()
    g_without = gen.weight.grad.clone()
    assert torch.allclose(g_with, g_without)
    print("ok: semantic loss gives the generator nothing")
