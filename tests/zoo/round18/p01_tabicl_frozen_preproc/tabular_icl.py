"""A small in-context-learning classifier for tables (row/column embedders + ICL head).

The layout mirrors a pretrained tabular foundation model: in training mode every stage
runs with autograd; in evaluation mode the expensive column/row embedders are run in a
cheaper inference path.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ColumnEmbedder(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.value_proj = nn.Linear(1, d_model)

    def forward(self, X):                      # X: (n_rows, n_cols)
        return torch.tanh(self.value_proj(X.unsqueeze(-1)))   # (n_rows, n_cols, d)


class RowInteractor(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.mix = nn.Linear(d_model, d_model)

    def forward(self, cells):                  # (n_rows, n_cols, d)
        return F.gelu(self.mix(cells.mean(dim=1)))   # (n_rows, d)


class ICLPredictor(nn.Module):
    def __init__(self, d_model, n_classes):
        super().__init__()
        self.label_emb = nn.Embedding(n_classes, d_model)
        self.query = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, n_classes)

    def forward(self, emb_train, y_train, emb_test):
        keys = emb_train + self.label_emb(y_train)
        att = torch.softmax(self.query(emb_test) @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return self.out(att @ keys)


class TabularICL(nn.Module):
    def __init__(self, d_model=16, n_classes=2):
        super().__init__()
        self.col_embedder = ColumnEmbedder(d_model)
        self.row_interactor = RowInteractor(d_model)
        self.icl_predictor = ICLPredictor(d_model, n_classes)

    def _embed(self, X):
        return self.row_interactor(self.col_embedder(X))

    def _train_forward(self, X_train, y_train, X_test):
        return self.icl_predictor(self._embed(X_train), y_train, self._embed(X_test))

    def _inference_forward(self, X_train, y_train, X_test):
        with torch.no_grad():
            emb_train = self._embed(X_train)
            emb_test = self._embed(X_test)
        return self.icl_predictor(emb_train, y_train, emb_test)

    def forward(self, X_train, y_train, X_test):
        if self.training:
            return self._train_forward(X_train, y_train, X_test)
        return self._inference_forward(X_train, y_train, X_test)
