import torch


class GraphTrainer:
    """Owns the optimizer for a graph model and applies one update per loss."""

    def __init__(self, model, lr=1e-2, weight_decay=5e-4, clip=2.0):
        self.model = model
        self.clip = clip
        self.opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
        self.updates = 0

    def optimize(self, loss):
        self.opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        self.updates += 1
        return loss.item()
