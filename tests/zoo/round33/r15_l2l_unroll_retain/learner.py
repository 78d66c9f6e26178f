import torch
import torch.nn as nn


class LSTMOptimizer(nn.Module):
    """Coordinate-wise learned optimizer: gradient in, update out."""

    def __init__(self, hidden=8):
        super().__init__()
        self.cell = nn.LSTMCell(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, grad, state):
        g = grad.reshape(-1, 1)
        h, c = self.cell(g, state)
        return self.out(h).reshape(grad.shape) * 0.1, (h, c)


def quadratic(W, Y, x):
    return ((torch.bmm(W, x.unsqueeze(-1)).squeeze(-1) - Y) ** 2).sum(-1).mean()


class Learner:
    """Unrolls the learned optimizer on a random quadratic problem."""

    def __init__(self, opt_net, steps=6, batch=4, dim=5):
        self.opt_net = opt_net
        self.steps = steps
        self.W = torch.randn(batch, dim, dim)
        self.Y = torch.randn(batch, dim)
        self.x0 = torch.zeros(batch, dim, requires_grad=True)
        self.on_update = None

    def unroll(self):
        x, state = self.x0, None
        global_loss = 0.0
        for i in range(self.steps):
            loss = quadratic(self.W, self.Y, x)
            global_loss = global_loss + (i / 20 + 1) * loss
            loss.backward(retain_graph=True)
            g, x.grad = x.grad, None
            update, state = self.opt_net(g, state)
            if self.on_update is not None:
                self.on_update(i, update)
            x = x + update
            x.retain_grad()
        return global_loss

    def unroll_fixed(self):
        x, state = self.x0, None
        global_loss = 0.0
        for i in range(self.steps):
            loss = quadratic(self.W, self.Y, x)
            global_loss = global_loss + (i / 20 + 1) * loss
            grad = torch.autograd.grad(loss, x, retain_graph=True)[0].detach()
            update, state = self.opt_net(grad, state)
            x = x + update
        return global_loss
