import torch


class EmbeddingPGD:
    """Projected-gradient perturbation of a word-embedding table (NLP adversarial training)."""

    def __init__(self, model, emb_name="embed", eps=1.0, alpha=0.3):
        self.model = model
        self.emb_name = emb_name
        self.eps = eps
        self.alpha = alpha
        self.emb_backup = {}
        self.grad_backup = {}

    def _emb_params(self):
        for name, p in self.model.named_parameters():
            if p.requires_grad and self.emb_name in name:
                yield name, p

    def attack(self, is_first_attack=False):
        for name, p in self._emb_params():
            if is_first_attack:
                self.emb_backup[name] = p.data.clone()
            g = p.grad
            norm = torch.norm(g)
            if norm != 0 and not torch.isnan(norm):
                p.data.add_(self.alpha * g / norm)
                delta = p.data - self.emb_backup[name]
                if torch.norm(delta) > self.eps:
                    delta = self.eps * delta / torch.norm(delta)
                p.data = self.emb_backup[name] + delta

    def restore(self):
        for name, p in self._emb_params():
            p.data = self.emb_backup[name]
        self.emb_backup = {}

    def backup_grad(self):
        for name, p in self.model.named_parameters():
            if p.requires_grad and p.grad is not None:
                self.grad_backup[name] = p.grad.clone()

    def restore_grad(self):
        for name, p in self.model.named_parameters():
            if name in self.grad_backup:
                p.grad = self.grad_backup[name]
