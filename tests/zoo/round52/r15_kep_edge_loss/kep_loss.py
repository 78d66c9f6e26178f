"""Unsupervised kidney-exchange (KEP) loss on per-edge predictions of a GNN edge classifier."""
import torch
from torch.autograd import Variable

EPS = 1e-10


def kep_loss(scores, pred, edge_weights):
    """log(total edge weight / weight of the edges put in the solution)."""
    solution_weight = torch.sum(edge_weights * pred)
    total_weight = torch.sum(edge_weights)
    loss = torch.log((total_weight + EPS) / (solution_weight + EPS))
    loss = Variable(loss, requires_grad=True)
    return loss


def kep_loss_fixed(scores, pred, edge_weights):
    masked_scores = pred * scores.softmax(dim=1)[:, 1]
    solution_weight = torch.sum(edge_weights * masked_scores)
    total_weight = torch.sum(edge_weights)
    return torch.log((total_weight + EPS) / (solution_weight + EPS))


class KEPLoss(torch.nn.Module):
    def __init__(self, fixed=False):
        super().__init__()
        self.fn = kep_loss_fixed if fixed else kep_loss

    def forward(self, scores, pred, edge_weights):
        return self.fn(scores, pred, edge_weights)
