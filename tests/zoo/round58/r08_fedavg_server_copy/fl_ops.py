"""Client/server weight exchange for federated averaging (PyTorch flavour)."""
import copy

import torch


def deploy_server_model(server_model):
    return copy.deepcopy(server_model)


def collect_client_weights(client_model):
    with torch.no_grad():
        return [w for w in client_model.state_dict().values()]


def collect_client_diff_weights(client_model, previous_model):
    with torch.no_grad():
        now = client_model.state_dict()
        before = previous_model.state_dict()
        return [now[name] - before[name] for name in now]


def fedavg(weight_lists, sizes):
    total = float(sum(sizes))
    return [sum(ws[i] * (n / total) for ws, n in zip(weight_lists, sizes))
            for i in range(len(weight_lists[0]))]


def set_aggregated_weights(server_model, aggregated):
    with torch.no_grad():
        weight_dict = server_model.state_dict()
        for key, new in zip(weight_dict, aggregated):
            weight_dict[key].copy_(new)


def set_aggregated_diff_weights(server_model, aggregated_diff):
    with torch.no_grad():
        weight_dict = server_model.state_dict()
        for key, new in zip(weight_dict, aggregated_diff):
            weight_dict[key].add_(new)
