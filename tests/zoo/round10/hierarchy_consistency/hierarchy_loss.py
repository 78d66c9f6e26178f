"""Loss for a two-level (superclass -> subclass) hierarchical classifier."""
import torch
import torch.nn.functional as F


class HierarchicalLoss:
    """Layer loss (cross-entropy per level) plus a dependence/consistency loss."""

    def __init__(self, children_of, alpha=1.0, beta=1.0):
        self.children_of = children_of      # superclass index -> list of subclass indices
        self.alpha = alpha
        self.beta = beta

    def layer_loss(self, coarse_logits, fine_logits, coarse_y, fine_y):
        return self.alpha * (F.cross_entropy(coarse_logits, coarse_y) + F.cross_entropy(fine_logits, fine_y))

    def consistency(self, coarse_logits, fine_logits):
        """Probability mass the fine head puts inside the predicted superclass."""
        coarse_pred = coarse_logits.argmax(dim=1)
        fine_prob = fine_logits.softmax(dim=1)
        mass = []
        for i in range(fine_prob.shape[0]):
            kids = self.children_of[coarse_pred[i].item()]
            mass.append(fine_prob[i, kids].sum().item())
        return torch.tensor(mass)

    def dependence_loss(self, coarse_logits, fine_logits):
        return self.beta * (1.0 - self.consistency(coarse_logits, fine_logits)).mean()

    def __call__(self, coarse_logits, fine_logits, coarse_y, fine_y):
        return (self.layer_loss(coarse_logits, fine_logits, coarse_y, fine_y)
                + self.dependence_loss(coarse_logits, fine_logits))
