import torch


def update(optimizer, loss):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    scores = critic(mixed)
    grads, = torch.autograd.grad(scores.sum(), mixed, create_graph=True)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()
