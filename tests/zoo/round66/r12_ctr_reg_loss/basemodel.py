"""Small DeepFM-style CTR model with a Keras-like fit() (reg loss as in old deepctr-torch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseModel(nn.Module):
    def __init__(self, field_dims, embedding_dim=8, l2_reg_embedding=1e-3, l2_reg_linear=1e-3,
                 reg_in_init=True):
        super().__init__()
        self.reg_in_init = reg_in_init
        self.embedding_dict = nn.ModuleDict({
            "f%d" % i: nn.Embedding(n, embedding_dim) for i, n in enumerate(field_dims)})
        self.linear_model = nn.ModuleDict({
            "f%d" % i: nn.Embedding(n, 1) for i, n in enumerate(field_dims)})
        self.dnn = nn.Sequential(nn.Linear(len(field_dims) * embedding_dim, 32), nn.ReLU(),
                                 nn.Linear(32, 1))
        self.l2_reg_embedding = l2_reg_embedding
        self.l2_reg_linear = l2_reg_linear
        self.reg_loss = torch.zeros((1,))
        if reg_in_init:
            # regularisation term built once, from the initial weights
            self.add_regularization_loss(self.embedding_dict.parameters(), l2_reg_embedding)
            self.add_regularization_loss(self.linear_model.parameters(), l2_reg_linear)

    def add_regularization_loss(self, weight_list, weight_decay):
        reg_loss = torch.zeros((1,))
        for w in weight_list:
            reg_loss = reg_loss + torch.sum(weight_decay * w.pow(2))
        self.reg_loss = self.reg_loss + reg_loss

    def current_reg_loss(self):
        reg = torch.zeros((1,))
        for w in self.embedding_dict.parameters():
            reg = reg + torch.sum(self.l2_reg_embedding * w.pow(2))
        for w in self.linear_model.parameters():
            reg = reg + torch.sum(self.l2_reg_linear * w.pow(2))
        return reg

    def forward(self, x):
        embs = [self.embedding_dict["f%d" % i](x[:, i]) for i in range(x.size(1))]
        lin = sum(self.linear_model["f%d" % i](x[:, i]) for i in range(x.size(1)))
        stack = torch.stack(embs, dim=1)                     # B x F x E
        fm = 0.5 * (stack.sum(1).pow(2) - stack.pow(2).sum(1)).sum(1, keepdim=True)
        deep = self.dnn(stack.flatten(1))
        return torch.sigmoid(lin + fm + deep).squeeze(-1)

    def fit(self, x, y, batch_size=64, epochs=1, lr=1e-2):
        optim = torch.optim.Adam(self.parameters(), lr=lr)
        history = []
        for _ in range(epochs):
            for start in range(0, x.size(0), batch_size):
                xb, yb = x[start:start + batch_size], y[start:start + batch_size]
                y_pred = self(xb)
                optim.zero_grad()
                loss = F.binary_cross_entropy(y_pred, yb, reduction="sum")
                if self.reg_in_init:
                    total_loss = loss + self.reg_loss
                    total_loss.backward(retain_graph=True)
                else:
                    total_loss = loss + self.current_reg_loss()
                    total_loss.backward()
                optim.step()
                history.append(loss.item() / xb.size(0))
        return history
