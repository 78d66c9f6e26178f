"""Elastic weight consolidation helper: Fisher estimate, anchor weights and the quadratic penalty."""
import torch
import torch.nn.functional as F
from torch import autograd


class ElasticWeightConsolidation:
    def __init__(self, model, crit, lr=0.05, weight=500.0):
        self.model = model
        self.crit = crit
        self.weight = weight
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.fisher = {}
        self.means = {}

    def _update_mean_params(self):
        for name, param in self.model.named_parameters():
            self.means[name] = param.data.clone()

    def _update_fisher_params(self, batches):
        log_liklihoods = []
        for inputs, target in batches:
            # only the head graph is kept per batch, to stop the memory from blowing up
            feats = self.model.features(inputs).detach()
            output = F.log_softmax(self.model.head(feats), dim=1)
            log_liklihoods.append(output[torch.arange(len(target)), target])
        log_likelihood = torch.cat(log_liklihoods).mean()
        names = [n for n, _ in self.model.named_parameters()]
        grads = autograd.grad(log_likelihood, list(self.model.parameters()), allow_unused=True)
        for name, param, g in zip(names, self.model.parameters(), grads):
            if g is None:
                g = torch.zeros_like(param)
            self.fisher[name] = g.data.clone() ** 2

    def register_ewc_params(self, batches):
        self._update_fisher_params(batches)
        self._update_mean_params()

    def consolidation_loss(self):
        losses = []
        for name, param in self.model.named_parameters():
            losses.append((self.fisher[name] * (param - self.means[name]) ** 2).sum())
        return (self.weight / 2) * sum(losses)

    def forward_backward_update(self, inputs, target):
        loss = self.consolidation_loss() + self.crit(self.model(inputs), target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
