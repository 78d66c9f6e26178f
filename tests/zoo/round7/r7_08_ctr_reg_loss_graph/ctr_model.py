"""Helper module of the r7_08 reproduction (docstring with the expected finding
is in main.py). A small DeepCTR-style base model: like the library at the
time, it builds its L2 regularisation term once, in __init__, from the
embedding and linear weights, and keeps the resulting tensor (and its autograd
graph) on self.reg_loss.
"""
import torch
import torch.nn as nn


class CTRBaseModel(nn.Module):
    def __init__(self, field_dims, embedding_size=4, l2_reg_embedding=1e-2,
                 l2_reg_linear=1e-2, hidden=16):
        super().__init__()
        self.reg_loss = torch.zeros((1,))
        self.embedding_dict = nn.ModuleDict(
            {f"f{i}": nn.Embedding(n, embedding_size) for i, n in enumerate(field_dims)})
        self.linear_weights = nn.ModuleDict(
            {f"f{i}": nn.Embedding(n, 1) for i, n in enumerate(field_dims)})
        self.dnn = nn.Sequential(nn.Linear(len(field_dims) * embedding_size, hidden),
                                 nn.ReLU(), nn.Linear(hidden, 1))
        for table in list(self.embedding_dict.values()) + list(self.linear_weights.values()):
            nn.init.normal_(table.weight, std=0.1)
        self.add_regularization_loss(self.embedding_dict.parameters(), l2_reg_embedding)
        self.add_regularization_loss(self.linear_weights.parameters(), l2_reg_linear)

    def add_regularization_loss(self, weight_list, weight_decay, p=2):
        reg_loss = torch.zeros((1,))
        for w in weight_list:
            reg_loss = reg_loss + torch.norm(w, p=p)
        self.reg_loss += weight_decay * reg_loss

    def forward(self, x):                                    # x: (B, n_fields) long
        embs = [self.embedding_dict[f"f{i}"](x[:, i]) for i in range(x.shape[1])]
        lin = sum(self.linear_weights[f"f{i}"](x[:, i]) for i in range(x.shape[1]))
        logit = lin + self.dnn(torch.cat(embs, dim=-1))
        return torch.sigmoid(logit).squeeze(-1)
