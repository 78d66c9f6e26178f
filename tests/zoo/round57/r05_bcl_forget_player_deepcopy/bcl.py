"""Balanced continual learning: two players perturb the input (generalisation) and the
parameters (forgetting) of the current model; replayed tasks are mixed into the batch."""
import copy

import torch
import torch.nn as nn
import torch.optim as optim
from torch.func import functional_call


def remap_labels(target):
    return target % 2


class BCLModel:
    def __init__(self, model, lr=0.05, epsilon=0.01, x_updates=3, theta_updates=3):
        self.model = model
        self.optimizer = optim.SGD(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()
        self.lr = lr
        self.epsilon = epsilon
        self.beta = 0.9
        self.x_updates = x_updates
        self.theta_updates = theta_updates
        self.task_count = 0

    @staticmethod
    def normalize_grad(grad, p=2, dim=1, eps=1e-12):
        return grad / grad.norm(p, dim, True).clamp(min=eps).expand_as(grad)

    def compute_losses(self, data, target):
        target = remap_labels(target)
        if self.task_count == 0:
            return {"total": self.criterion(self.model(data), target)}

        total_loss = self.beta * self.criterion(self.model(data), target)
        perturbed_input = copy.deepcopy(data)
        perturbed_input.requires_grad = True
        adv_grad = 0
        J_PN_x = self.criterion(self.model(data), target)

        # Player 1: perturb the input
        for _ in range(self.x_updates):
            perturbed_input = perturbed_input + self.epsilon * adv_grad
            adv_grad = torch.autograd.grad(
                self.criterion(self.model(perturbed_input), target), perturbed_input)[0]
            adv_grad = self.normalize_grad(adv_grad)
        gen_loss = self.criterion(self.model(perturbed_input), target) - J_PN_x

        # Player 2: perturb the parameters, J(theta) - J(theta + zeta)
        J_P = self.criterion(self.model(data), target)
        temp_model = copy.deepcopy(self.model)
        temp_optimizer = optim.SGD(temp_model.parameters(), lr=self.lr)
        J_PN_theta = self.criterion(self.model(data), target)
        for _ in range(self.theta_updates):
            temp_optimizer.zero_grad()
            forget_step = self.criterion(temp_model(data), target)
            forget_step.backward()
            temp_optimizer.step()
        forget_loss = J_PN_theta - self.criterion(temp_model(data), target)

        total_loss = total_loss + J_P + forget_loss + gen_loss
        return {"total": total_loss, "forget": forget_loss, "J_PN_theta": J_PN_theta}

    def update_model(self, data, target):
        losses = self.compute_losses(data, target)
        self.optimizer.zero_grad()
        losses["total"].backward()
        self.optimizer.step()
        return losses["total"].item()


def forget_term_through_theta(model, data, target, lr, steps):
    """J(theta) - J(theta'), where theta' = theta - lr * grad stays a function of theta."""
    criterion = nn.CrossEntropyLoss()
    target = remap_labels(target)
    params = dict(model.named_parameters())
    J_theta = criterion(functional_call(model, params, (data,)), target)
    fast = params
    for _ in range(steps):
        loss = criterion(functional_call(model, fast, (data,)), target)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
        fast = {k: v - lr * g for (k, v), g in zip(fast.items(), grads)}
    return J_theta - criterion(functional_call(model, fast, (data,)), target)
