"""A small attentive tabular regressor and its fit loop (TabNet-like)."""
import torch
import torch.nn as nn


class AttentiveRegressor(nn.Module):
    def __init__(self, n_feat=6):
        super().__init__()
        self.mask_logits = nn.Linear(n_feat, n_feat)
        self.body = nn.Sequential(nn.Linear(n_feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        mask = torch.softmax(self.mask_logits(x), dim=-1)
        sparsity = (-mask * torch.log(mask + 1e-10)).sum(dim=-1).mean()
        return self.body(x * mask), sparsity


class TabularFitter:
    def __init__(self, model, loss_fn, lambda_sparse=1e-3, lr=1e-2):
        self.model = model
        self.loss_fn = loss_fn
        self.lambda_sparse = lambda_sparse
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_batch(self, x, y):
        self.opt.zero_grad()
        out, m_loss = self.model(x)
        loss = self.loss_fn(out, y)
        loss -= self.lambda_sparse * m_loss
        loss.backward()
        self.opt.step()
        return loss.item()
