"""
expect: GL002 44
dynamic: confirm
source: none, invented

A small image generator trained with a pixel reconstruction loss. The author reused a post-processing helper
written for input-optimisation scripts: it turns the image into NumPy, applies a light blur and clipping to
[0, 1], and hands back a tensor created with requires_grad=True. Here that helper is applied to the
generator's output before the loss, so the loss is computed on a brand-new leaf built from NumPy values; it
has no history back to the generator. backward() runs without complaint, but the generator's parameters get
no gradient and do not change over the training steps. The asserts show .grad is None and the weights are
identical after training; the fixed variant does the same clipping with torch ops on the output itself and
the generator's weights move and its reconstruction loss falls.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class BlobGenerator(nn.Module):
    def __init__(self, code_dim=8):
        super().__init__()
        self.fc = nn.Linear(code_dim, 16 * 4 * 4)
        self.up = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1), nn.Sigmoid(),
        )

    def forward(self, code):
        return self.up(self.fc(code).view(-1, 16, 4, 4))


def postprocess(images):
    arr = images.detach().cpu().numpy()
    smoothed = arr.copy()
    smoothed[:, :, 1:-1, 1:-1] = (arr[:, :, 1:-1, 1:-1] * 2
                                  + arr[:, :, :-2, 1:-1] + arr[:, :, 2:, 1:-1]
                                  + arr[:, :, 1:-1, :-2] + arr[:, :, 1:-1, 2:]) / 6.0
    smoothed = np.clip(smoothed, 0.0, 1.0)
    return torch.tensor(smoothed, dtype=torch.float32, requires_grad=True)


def postprocess_torch(images):
    kernel = torch.tensor([[0.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3) / 6.0
    smoothed = F.conv2d(F.pad(images, (1, 1, 1, 1), mode="replicate"), kernel)
    return smoothed.clamp(0.0, 1.0)


def make_targets(n=32):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    codes = torch.randn(n, 8)
    cx = 8 + 4 * torch.tanh(codes[:, 0])
    cy = 8 + 4 * torch.tanh(codes[:, 1])
    blobs = torch.exp(-((xx - cx.view(-1, 1, 1)) ** 2 + (yy - cy.view(-1, 1, 1)) ** 2) / 8.0)
    return codes, blobs.unsqueeze(1)


def train(post, steps=30):
    generator = BlobGenerator()
    opt = torch.optim.Adam(generator.parameters(), lr=3e-3)
    codes, targets = make_targets()
    w0 = generator.fc.weight.detach().clone()
    losses = []
    for _ in range(steps):
        recon = post(generator(codes))
        loss = F.mse_loss(recon, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return generator, w0, losses


if __name__ == "__main__":
    generator, w0, losses = train(postprocess)
    assert generator.fc.weight.grad is None
    assert torch.equal(generator.fc.weight, w0)
    assert abs(losses[-1] - losses[0]) < 1e-6

    generator, w0, losses = train(postprocess_torch)
    assert generator.fc.weight.grad is not None
    assert not torch.equal(generator.fc.weight, w0)
    assert losses[-1] < losses[0]
    print("generator reconstruction %.4f -> %.4f" % (losses[0], losses[-1]))
