"""Training engine: computes the GAN losses in forward() and applies them in backward()."""
import torch
from torch.nn import BCEWithLogitsLoss
from torch.optim import Adam


class EngineGAN:
    def __init__(self, model, lr=2e-4):
        self.model = model
        self.criterion = BCEWithLogitsLoss()
        self.optimizer_G = Adam(model.generator.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = Adam(model.discriminator.parameters(), lr=lr, betas=(0.5, 0.999))
        self.g_loss = self.dreal_loss = self.dfake_loss = None

    def forward(self, data):
        valid = torch.ones(data.shape[0], 1)
        fake = torch.zeros(data.shape[0], 1)
        z = torch.randn(data.shape[0], 16, 1, 1)
        results = self.model(data, z)
        gen_results = results["genresults"].detach()
        real_results = results["realresults"].detach()

        self.g_loss = self.criterion(gen_results, valid)
        self.dreal_loss = self.criterion(real_results, valid)
        self.dfake_loss = self.criterion(gen_results, fake)

        if self.g_loss.requires_grad is False:
            self.g_loss.requires_grad = True
        if self.dreal_loss.requires_grad is False:
            self.dreal_loss.requires_grad = True
        if self.dfake_loss.requires_grad is False:
            self.dfake_loss.requires_grad = True
        return {"g_loss": self.g_loss.item(), "d_loss": (self.dreal_loss + self.dfake_loss).item()}

    def backward(self):
        self.optimizer_G.zero_grad()
        self.g_loss.backward()
        self.optimizer_G.step()

        self.optimizer_D.zero_grad()
        self.dreal_loss.backward()
        self.dfake_loss.backward()
        self.optimizer_D.step()
