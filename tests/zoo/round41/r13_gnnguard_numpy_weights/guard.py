"""GNNGuard-style edge re-weighting: cosine similarity plus a learnable drop gate, done in NumPy."""
import numpy as np
import torch


def att_coef(model, fea, edge_index):
    n_node = fea.shape[0]
    row, col = edge_index[0].numpy(), edge_index[1].numpy()
    fea_copy = fea.cpu().data.numpy()
    unit = fea_copy / (np.linalg.norm(fea_copy, axis=1, keepdims=True) + 1e-8)
    sim = (unit[row] * unit[col]).sum(axis=1)
    sim[sim < 0.1] = 0.0
    att_dense = np.zeros((n_node, n_node), dtype=np.float32)
    att_dense[row, col] = sim
    att_dense_norm = att_dense / (att_dense.sum(axis=1, keepdims=True) + 1e-8)

    character = np.vstack((att_dense_norm[row, col], att_dense_norm[col, row])).T
    drop_score = torch.sigmoid(model.drop_learn(torch.from_numpy(character).float()))
    drop_decision = drop_score.clone().requires_grad_()
    drop_matrix = np.zeros((n_node, n_node), dtype=np.float32)
    drop_matrix[row, col] = drop_decision.cpu().data.numpy().squeeze(-1)
    att_dense_norm = att_dense_norm * drop_matrix

    degree = (att_dense_norm != 0).sum(axis=1)
    att = att_dense_norm + np.diag(1.0 / (degree + 1))
    att_edge_weight = np.exp(att[row, col])
    att_edge_weight = torch.tensor(att_edge_weight, dtype=torch.float32)
    return att_edge_weight


def att_coef_torch(model, fea, edge_index):
    """Same weighting kept inside autograd (the gate stays a function of drop_learn)."""
    n_node = fea.shape[0]
    row, col = edge_index
    unit = fea.detach() / (fea.detach().norm(dim=1, keepdim=True) + 1e-8)
    sim = (unit[row] * unit[col]).sum(dim=1)
    sim = torch.where(sim < 0.1, torch.zeros_like(sim), sim)
    att_dense = torch.zeros(n_node, n_node).index_put((row, col), sim)
    att_dense_norm = att_dense / (att_dense.sum(dim=1, keepdim=True) + 1e-8)
    character = torch.stack((att_dense_norm[row, col], att_dense_norm[col, row]), dim=1)
    drop_score = torch.sigmoid(model.drop_learn(character)).squeeze(-1)
    weights = att_dense_norm[row, col] * drop_score
    degree = torch.zeros(n_node).index_add(0, row, (weights != 0).float())
    self_loop = (row == col).float() / (degree[row] + 1)
    return torch.exp(weights + self_loop)
