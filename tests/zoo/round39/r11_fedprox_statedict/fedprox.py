import torch
import torch.nn as nn
import torch.nn.functional as F
from copy import deepcopy


class FedAvgClientTrainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def loss(self, y_pred, y, current_state, original_state):
        return F.mse_loss(y_pred, y)

    def train_node(self, loader, original_state):
        total = 0.0
        for x, y in loader:
            self.optimizer.zero_grad()
            y_pred = self.model(x)
            cur_loss = self.loss(y_pred, y, self.model.state_dict(), original_state)
            cur_loss.backward()
            self.optimizer.step()
            total += cur_loss.item()
        return total / len(loader)


class FedProxClientTrainer(FedAvgClientTrainer):
    def __init__(self, model, mu, lr=0.1):
        super().__init__(model, lr)
        self.mu = mu

    def proximal_term(self, current_state, original_state):
        sq = [((current_state[k] - original_state[k]) ** 2).sum() for k in current_state]
        return 0.5 * self.mu * torch.stack(sq).sum()

    def loss(self, y_pred, y, current_state, original_state):
        return super().loss(y_pred, y, current_state, original_state) + \
            self.proximal_term(current_state, original_state)


def snapshot(model):
    return deepcopy(model.state_dict())
