"""Iterative magnitude pruning helpers (lottery-ticket style weight-level pruning)."""
import copy

import torch
import torch.nn as nn


class WeightLevelPruner:
    """Keeps one binary mask per prunable layer and re-applies it.

    The mask is applied to the weights once (in place on ``.data``) and,
    during retraining, to the *gradients* after every backward pass so that
    pruned connections stay at exactly zero.
    """

    def __init__(self, model):
        self.model = model
        self.masks = {}

    def prunable(self):
        for module in self.model.modules():
            if isinstance(module, (nn.Linear, nn.Conv2d)):
                yield module

    def prune_global(self, percent):
        all_weights = torch.cat([m.weight.data.abs().flatten() for m in self.prunable()])
        k = int(all_weights.numel() * percent)
        threshold = all_weights.kthvalue(k).values
        for module in self.prunable():
            weight_copy = module.weight.data.abs().clone()
            mask = weight_copy.gt(threshold).float()
            self.masks[module] = mask
        return threshold

    def rewind(self, init_state):
        """Reset surviving weights to their original initialisation (the 'ticket')."""
        self.model.load_state_dict(init_state)
        for module, mask in self.masks.items():
            module.weight.data.mul_(mask)

    def zero_pruned_grads(self):
        # runs after loss.backward(): the graph is already consumed, the .grad
        # buffers belong to nobody else, so editing them in place is safe
        for module, mask in self.masks.items():
            if module.weight.grad is not None:
                module.weight.grad.data.mul_(mask)

    def sparsity(self):
        total = sum(m.numel() for m in self.masks.values())
        zeros = sum((module.weight.data == 0).sum().item() for module in self.masks)
        return zeros / total


def train_one_epoch(model, pruner, batches, optimizer, criterion):
    model.train()
    running = 0.0
    for inputs, targets in batches:
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        if pruner is not None:
            pruner.zero_pruned_grads()
        optimizer.step()
        running += loss.item()
    return running / len(batches)


@torch.no_grad()
def accuracy(model, inputs, targets):
    model.eval()
    return (model(inputs).argmax(1) == targets).float().mean().item()


def snapshot(model):
    return copy.deepcopy(model.state_dict())
