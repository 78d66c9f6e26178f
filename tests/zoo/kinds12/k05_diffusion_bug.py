"""
expect: GL001 32
dynamic: confirm
source: kind 5

A toy classifier-guided diffusion model trains a noise predictor and a noisy-image classifier
together. The guidance function makes a leaf of the noisy input to take the classifier's
input gradient, then returns the guided noise prediction with .detach(), cutting the noise
predictor out of the graph; that result is used in the training loss next to the classifier
term, so backward runs but the noise predictor's .grad is None and its weights never change.
A variant that keeps the prediction attached trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisePredictor(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 64), nn.SiLU(), nn.Linear(64, dim))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, t[:, None]], -1))


def guided_noise(eps_model, classifier, x_t, t, labels, scale=0.5):
    probe = x_t.detach().requires_grad_()
    log_p = F.log_softmax(classifier(probe), -1).gather(1, labels[:, None]).sum()
    (grad,) = torch.autograd.grad(log_p, probe)
    eps = eps_model(x_t, t)
    return (eps - scale * grad).detach()


def train(inline_guidance, steps=3):
    torch.manual_seed(0)
    eps_model = NoisePredictor()
    classifier = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.Adam(list(eps_model.parameters()) + list(classifier.parameters()), lr=1e-3)
    x0 = torch.randn(64, 32)
    labels = torch.randint(0, 4, (64,))
    before = eps_model.net[0].weight.clone()
    for _ in range(steps):
        t = torch.rand(64)
        noise = torch.randn_like(x0)
        alpha = (1 - t)[:, None]
        x_t = alpha.sqrt() * x0 + (1 - alpha).sqrt() * noise
        if inline_guidance:
            probe = x_t.detach().requires_grad_()
            log_p = F.log_softmax(classifier(probe), -1).gather(1, labels[:, None]).sum()
            (grad,) = torch.autograd.grad(log_p, probe)
            pred = eps_model(x_t, t) - 0.5 * grad
        else:
            pred = guided_noise(eps_model, classifier, x_t, t, labels)
        loss = F.mse_loss(pred, noise) + F.cross_entropy(classifier(x_t), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return eps_model, before


def main():
    eps_model, before = train(inline_guidance=False)
    assert eps_model.net[0].weight.grad is None
    assert torch.equal(eps_model.net[0].weight, before)
    eps_model, before = train(inline_guidance=True)
    assert not torch.equal(eps_model.net[0].weight, before)
    print("ok: noise predictor never trained through the detached guided output")


if __name__ == "__main__":
    main()
