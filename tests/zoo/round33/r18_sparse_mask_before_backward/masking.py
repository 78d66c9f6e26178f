import torch


class Masking:
    """Keeps a fixed fraction of each weight matrix at zero (sparse training)."""

    def __init__(self, model, density=0.5):
        self.masks = {}
        for name, p in model.named_parameters():
            if p.dim() == 2:
                k = int(p.numel() * density)
                thr = p.detach().abs().flatten().kthvalue(p.numel() - k).values
                self.masks[name] = (p.detach().abs() > thr).float()
        self.model = model

    def apply_mask(self):
        for name, p in self.model.named_parameters():
            if name in self.masks:
                p.data.mul_(self.masks[name])


class SparseTrainer:
    def __init__(self, model, masking, lr=0.1):
        self.model = model
        self.masking = masking
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def step(self, x, y, loss_fn):
        self.opt.zero_grad()
        loss = loss_fn(self.model(x), y)
        # keep pruned weights at zero "before the update"
        self.masking.apply_mask()
        loss.backward()
        self.opt.step()
        return loss
