"""Ensemble (mutual) learner: a cohort of small students trained together."""
import torch.nn.functional as F


class EnsembleLearner:
    def __init__(self, models, optimizers, kd_criterion):
        self.models = models
        self.optimizers = optimizers
        self.kd_criterion = kd_criterion
        self.classification_loss = []
        self.model_output = []

    def train_batch(self, data, target):
        for m in self.models:
            output = m(data)
            self.classification_loss.append(F.cross_entropy(output, target))
            self.model_output.append(output)

        total = 0.0
        for idx, (optim, c_l) in enumerate(zip(self.optimizers, self.classification_loss)):
            optim.zero_grad()
            model_loss = c_l + self.kd_criterion(idx, self.model_output)
            model_loss.backward(retain_graph=True)
            optim.step()
            total += model_loss.item()
        return total


class ClearingEnsembleLearner(EnsembleLearner):
    """Same update, but the per-batch lists start empty every batch."""

    def train_batch(self, data, target):
        outputs = [m(data) for m in self.models]
        losses = [F.cross_entropy(o, target) for o in outputs]
        total = 0.0
        for idx, (optim, c_l) in enumerate(zip(self.optimizers, losses)):
            optim.zero_grad()
            model_loss = c_l + self.kd_criterion(idx, outputs)
            model_loss.backward()
            optim.step()
            total += model_loss.item()
        return total
