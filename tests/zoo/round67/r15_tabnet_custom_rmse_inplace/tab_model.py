"""Minimal TabNet-like regressor with the library's training-loop structure."""
import torch
import torch.nn as nn


class AttentiveStep(nn.Module):
    def __init__(self, n_features, n_d):
        super().__init__()
        self.attentive = nn.Linear(n_features, n_features)
        self.transform = nn.Sequential(nn.Linear(n_features, n_d), nn.ReLU(), nn.Linear(n_d, n_d))

    def forward(self, x, prior):
        mask = torch.softmax(self.attentive(x) * prior, dim=-1)
        return self.transform(mask * x), mask


class TabNetLike(nn.Module):
    def __init__(self, n_features, n_d=16, n_steps=3, gamma=1.3):
        super().__init__()
        self.steps = nn.ModuleList([AttentiveStep(n_features, n_d) for _ in range(n_steps)])
        self.head = nn.Linear(n_d, 1)
        self.gamma = gamma

    def forward(self, x):
        prior = torch.ones_like(x)
        out = 0
        M_loss = 0
        for step in self.steps:
            d, mask = step(x, prior)
            out = out + torch.relu(d)
            prior = prior * (self.gamma - mask)
            M_loss = M_loss + torch.mean(torch.sum(mask * torch.log(mask + 1e-15), dim=1))
        return self.head(out).squeeze(-1), M_loss / len(self.steps)


class TabNetLikeRegressor:
    def __init__(self, n_features, loss_fn=None, lambda_sparse=1e-3, lr=2e-2, seed=0):
        torch.manual_seed(seed)
        self.network = TabNetLike(n_features)
        self.loss_fn = loss_fn if loss_fn is not None else nn.functional.mse_loss
        self.lambda_sparse = lambda_sparse
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=lr)
        self.inplace_sparse_penalty = True

    def compute_loss(self, y_pred, y_true):
        return self.loss_fn(y_pred, y_true)

    def _train_batch(self, X, y):
        self.optimizer.zero_grad()
        output, M_loss = self.network(X)
        loss = self.compute_loss(output, y)
        # Add the overall sparsity loss
        if self.inplace_sparse_penalty:
            loss -= self.lambda_sparse * M_loss
        else:
            loss = loss - self.lambda_sparse * M_loss
        loss.backward()
        nn.utils.clip_grad_norm_(self.network.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()

    def fit(self, X, y, epochs=30, batch_size=64):
        history = []
        for _ in range(epochs):
            perm = torch.randperm(len(X))
            losses = [self._train_batch(X[perm[i:i + batch_size]], y[perm[i:i + batch_size]])
                      for i in range(0, len(X), batch_size)]
            history.append(sum(losses) / len(losses))
        return history
