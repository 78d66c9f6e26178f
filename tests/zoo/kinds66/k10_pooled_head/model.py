import torch.nn as nn


class SetClassifier(nn.Module):
    """Deep-sets style classifier: embed each element, mean-pool, classify the pooled vector."""

    def __init__(self, in_dim=4, hidden=32, n_classes=2):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, n_classes))
        self.last_embedding = None

    def forward(self, sets):
        elements = self.embed(sets)
        pooled = elements.mean(dim=1).detach()
        # keep the set embedding around for the nearest-neighbour lookup at eval time
        self.last_embedding = pooled
        return self.head(pooled)


class SetClassifierFixed(SetClassifier):
    def forward(self, sets):
        elements = self.embed(sets)
        pooled = elements.mean(dim=1)
        self.last_embedding = pooled.detach()
        return self.head(pooled)
