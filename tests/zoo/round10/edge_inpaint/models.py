"""Edge-completion model: generator + discriminator trained adversarially."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, gray, edges, mask):
        return torch.sigmoid(self.net(torch.cat([gray, edges * (1 - mask), mask], 1)))


class EdgeDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(2, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(8, 1, 4, stride=2, padding=1))

    def forward(self, edges, gray):
        return self.net(torch.cat([edges, gray], 1))


class EdgeModel(nn.Module):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.generator = EdgeGenerator()
        self.discriminator = EdgeDiscriminator()
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr)
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr)

    def process(self, gray, edges, mask):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self.generator(gray, edges, mask)

        real = self.discriminator(edges, gray)
        fake = self.discriminator(outputs.detach(), gray)
        dis_loss = (F.binary_cross_entropy_with_logits(real, torch.ones_like(real))
                    + F.binary_cross_entropy_with_logits(fake, torch.zeros_like(fake))) / 2

        gen_fake = self.discriminator(outputs, gray)
        gen_loss = (F.binary_cross_entropy_with_logits(gen_fake, torch.ones_like(gen_fake))
                    + 10.0 * F.l1_loss(outputs, edges))
        return outputs, gen_loss, dis_loss

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
        self.dis_optimizer.step()
        if gen_loss is not None:
            gen_loss.backward()
        self.gen_optimizer.step()
