"""Generic supervised trainer used by the grasping experiments."""
import torch


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def train_step(self, batch):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.model.compute_loss(batch)
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss

    def fit(self, batches, epochs=1):
        for _ in range(epochs):
            for batch in batches:
                self.train_step(batch)
        return self.history
