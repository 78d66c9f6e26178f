"""Client-side local training routines for FedAvg and FedDyn."""
import torch


def flat_params(model):
    return torch.cat([p.flatten() for p in model.parameters()])


def train(model, data_loader, optimizer, loss_fun):
    model.train()
    for data, target in data_loader:
        loss = loss_fun(model(data), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_dyn(alpha, model, server_model, data_loader, optimizer, loss_fun, L, c_idx):
    """FedDyn local objective: CE - <L, w> + alpha/2 * ||w - w_server||^2."""
    if L[c_idx] is None:
        L[c_idx] = torch.zeros_like(torch.cat([p.data.flatten() for p in server_model.parameters()]))
    L_t = L[c_idx]
    server_model_tensor = torch.cat([p.data.flatten() for p in server_model.parameters()])
    local_model_tensor = torch.cat([p.data.flatten() for p in model.parameters()])
    model.train()
    for data, target in data_loader:
        l1 = loss_fun(model(data), target)
        l2 = torch.dot(L_t, local_model_tensor)
        l3 = torch.sum(torch.pow(local_model_tensor - server_model_tensor, 2))
        loss = l1 - l2 + 0.5 * alpha * l3
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        L[c_idx] = L_t - alpha * (local_model_tensor - server_model_tensor)
    return loss


def train_dyn_live(alpha, model, server_model, data_loader, optimizer, loss_fun, L, c_idx):
    """Same objective with the local parameters read inside the graph."""
    server_model_tensor = flat_params(server_model).detach()
    if L[c_idx] is None:
        L[c_idx] = torch.zeros_like(server_model_tensor)
    model.train()
    for data, target in data_loader:
        local_model_tensor = flat_params(model)
        l1 = loss_fun(model(data), target)
        l2 = torch.dot(L[c_idx], local_model_tensor)
        l3 = torch.sum((local_model_tensor - server_model_tensor) ** 2)
        loss = l1 - l2 + 0.5 * alpha * l3
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    L[c_idx] = L[c_idx] - alpha * (flat_params(model).detach() - server_model_tensor)
    return loss
