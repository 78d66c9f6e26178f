"""
expect: GL005 48
dynamic: confirm
source: https://github.com/GiorgosKarantonis/Adversarial-Attacks-with-Relativistic-AdvGAN/issues/8

The reporter set n_steps_G > 1 in an AdvGAN trainer and added retain_graph=True to loss_G, but
training still failed with "modified by an inplace operation"; the fix was to regenerate the
perturbation inside each generator step. This program rebuilds the trainer: the adversarial images
are produced once, then the generator loop backpropagates through that same graph and calls
optimizer_G.step() each time. The step rewrites the generator's second-layer weight in place (its
version moves) while the retained graph saved it, so the second backward raises; the assert
catches it, and the variant that regenerates the perturbation per step trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PerturbGen(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return torch.tanh(self.net(x))


class AdvGANTrainer:
    def __init__(self, target_model, eps=0.3, n_steps_G=2):
        self.G = PerturbGen()
        self.target = target_model
        self.eps = eps
        self.n_steps_G = n_steps_G
        self.optimizer_G = torch.optim.Adam(self.G.parameters(), lr=1e-3)

    def train_batch(self, x, y):
        perturbation = self.G(x)
        adv_images = torch.clamp(perturbation, -self.eps, self.eps) + x
        adv_images = torch.clamp(adv_images, 0, 1)
        for _ in range(self.n_steps_G):
            self.optimizer_G.zero_grad()
            loss_adv = -F.cross_entropy(self.target(adv_images), y)
            loss_pert = perturbation.norm(dim=1).mean()
            loss_G = loss_adv + 0.1 * loss_pert
            loss_G.backward(retain_graph=True)
            self.optimizer_G.step()

    def train_batch_v2(self, x, y):
        for _ in range(self.n_steps_G):
            perturbation = self.G(x)
            adv_images = torch.clamp(torch.clamp(perturbation, -self.eps, self.eps) + x, 0, 1)
            self.optimizer_G.zero_grad()
            loss_G = -F.cross_entropy(self.target(adv_images), y) + 0.1 * perturbation.norm(dim=1).mean()
            loss_G.backward()
            self.optimizer_G.step()


target = nn.Sequential(nn.Linear(16, 10))
for p in target.parameters():
    p.requires_grad_(False)
x = torch.rand(8, 16)
y = torch.randint(0, 10, (8,))

trainer = AdvGANTrainer(target)
try:
    trainer.train_batch(x, y)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "inplace" in msg, msg

trainer2 = AdvGANTrainer(target)
w0 = trainer2.G.net[2].weight.detach().clone()
trainer2.train_batch_v2(x, y)
assert not torch.equal(w0, trainer2.G.net[2].weight)
print("ok: generator step inside the retained-graph loop breaks the saved weight")
