"""Deep SVDD trainer: fixed hypersphere centre c, radius R solved by a quantile (soft boundary)."""
import numpy as np
import torch


def get_radius(dist, nu):
    """Optimal radius for the current batch: the (1 - nu)-quantile of the distances."""
    return np.quantile(np.sqrt(dist.clone().data.cpu().numpy()), 1 - nu)


class DeepSVDDTrainer:
    def __init__(self, nu=0.1, lr=1e-3, epochs=30, objective="soft-boundary"):
        self.nu, self.lr, self.epochs, self.objective = nu, lr, epochs, objective
        self.R = torch.tensor(0.0)  # radius: set by line search, never by the optimizer
        self.c = None

    @torch.no_grad()
    def init_center_c(self, loader, net, eps=0.1):
        n, c = 0, None
        net.eval()
        for x in loader:
            out = net(x)
            c = out.sum(0) if c is None else c + out.sum(0)
            n += out.shape[0]
        c /= n
        # keep coordinates away from 0, where a bias-free net could trivially map everything
        c[(abs(c) < eps) & (c < 0)] = -eps
        c[(abs(c) < eps) & (c > 0)] = eps
        return c

    def train(self, loader, net):
        opt = torch.optim.Adam(net.parameters(), lr=self.lr, weight_decay=1e-6)
        if self.c is None:
            self.c = self.init_center_c(loader, net)
        net.train()
        history = []
        for epoch in range(self.epochs):
            total = 0.0
            for x in loader:
                opt.zero_grad()
                out = net(x)
                dist = torch.sum((out - self.c) ** 2, dim=1)
                if self.objective == "soft-boundary":
                    scores = dist - self.R ** 2
                    loss = self.R ** 2 + (1 / self.nu) * torch.mean(torch.clamp(scores, min=0))
                else:
                    loss = torch.mean(dist)
                loss.backward()
                opt.step()
                if self.objective == "soft-boundary" and epoch >= 2:  # after warm-up
                    self.R.data = torch.tensor(get_radius(dist, self.nu), dtype=torch.float32)
                total += loss.item()
            history.append(total / len(loader))
        return history
