"""
expect: none
dynamic: dismiss
source: https://github.com/NVlabs/DG-Net/issues/40

Person re-identification with joint generative training (DG-Net style). The appearance
encoder produces an appearance code f and identity logits; the identity loss trains
the appearance encoder. For image generation the code is passed on as f.detach(), so
the generation losses (image reconstruction, and the feature reconstruction of the
re-encoded generated image against the detached f) train the decoder and structure
encoder but never pull the re-id appearance code toward what is easy to render. A
reader asked whether the detach makes the recon_f loss useless; the maintainer
explained it is intended. The asserts show: with only the generation losses, the
decoder and structure encoder get non-zero gradients while the appearance encoder's
classifier head gets none (intended); with the full objective the appearance encoder
is trained by the identity loss, and both the identity loss and the reconstruction
loss fall during a short run.
"""
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_IDS = 5
FEAT = 16


class AppearanceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 48), nn.ReLU(), nn.Linear(48, FEAT))
        self.classifier = nn.Linear(FEAT, NUM_IDS)

    def forward(self, x):
        f = self.body(x)
        return f, self.classifier(f)


class StructureEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 24), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(24 + FEAT, 48), nn.ReLU(), nn.Linear(48, 32))

    def forward(self, s, f):
        return self.net(torch.cat([s, f], dim=1))


class DGTrainer:
    def __init__(self):
        self.id_a = AppearanceEncoder()
        self.gen_s = StructureEncoder()
        self.dec = Decoder()
        params = list(self.id_a.parameters()) + list(self.gen_s.parameters()) + list(self.dec.parameters())
        self.opt = torch.optim.Adam(params, lr=3e-3)

    def losses(self, x_a, x_b, labels_a):
        f_a, logits_a = self.id_a(x_a)
        s_a = self.gen_s(x_a)
        s_b = self.gen_s(x_b)
        # appearance code handed to the generator is detached on purpose
        f_code = f_a.detach()
        x_aa = self.dec(s_a, f_code)
        x_ba = self.dec(s_b, f_code)
        f_ba_recon, _ = self.id_a(x_ba)
        loss_recon_x = F.l1_loss(x_aa, x_a)
        loss_recon_f = F.l1_loss(f_ba_recon, f_code)
        loss_id = F.cross_entropy(logits_a, labels_a)
        return loss_id, loss_recon_x, loss_recon_f

    def step(self, x_a, x_b, labels_a):
        loss_id, loss_recon_x, loss_recon_f = self.losses(x_a, x_b, labels_a)
        total = loss_id + 5.0 * loss_recon_x + 0.5 * loss_recon_f
        self.opt.zero_grad()
        total.backward()
        self.opt.step()
        return loss_id.item(), loss_recon_x.item()


def main():
    trainer = DGTrainer()
    prototypes = torch.randn(NUM_IDS, 32)
    labels = torch.arange(NUM_IDS).repeat(8)
    x_a = prototypes[labels] + 0.3 * torch.randn(len(labels), 32)
    x_b = prototypes[labels.roll(3)] + 0.3 * torch.randn(len(labels), 32)

    # generation losses alone: decoder and structure encoder learn, re-id head untouched
    _, loss_recon_x, loss_recon_f = trainer.losses(x_a, x_b, labels)
    trainer.opt.zero_grad()
    (loss_recon_x + loss_recon_f).backward()
    assert trainer.dec.net[0].weight.grad.abs().sum() > 0
    assert trainer.gen_s.net[0].weight.grad.abs().sum() > 0
    assert trainer.id_a.classifier.weight.grad is None

    history = [trainer.step(x_a, x_b, labels) for _ in range(150)]
    id0, rec0 = history[0]
    id1, rec1 = history[-1]
    print(f"id loss {id0:.3f} -> {id1:.3f}, recon {rec0:.3f} -> {rec1:.3f}")
    assert id1 < 0.5 * id0
    assert rec1 < rec0
    print("OK: detached appearance code is an intended stop-gradient")


if __name__ == "__main__":
    main()
