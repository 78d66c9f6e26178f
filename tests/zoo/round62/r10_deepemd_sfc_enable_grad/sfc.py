"""Test-time 'structured fully connected' (SFC) prototype fine-tuning for few-shot episodes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def metric_logits(prototypes, feats, temperature=12.5):
    """Cosine-similarity logits between features (N, D) and class prototypes (way, D)."""
    return temperature * F.normalize(feats, dim=1) @ F.normalize(prototypes, dim=1).t()


def get_sfc(support, way, shot, steps=15, lr=0.1, batch_size=5):
    """support: (shot*way, D) features ordered shot-major. Returns a fine-tuned prototype tensor."""
    init = support.view(shot, way, -1).mean(dim=0).clone().detach()
    sfc = nn.Parameter(init.detach(), requires_grad=True)
    start = init.clone()  # sfc shares storage with init; keep a copy of the starting point
    optimizer = torch.optim.SGD([sfc], lr=lr, momentum=0.9, dampening=0.9, weight_decay=0.0005)
    label_shot = torch.arange(way).repeat(shot)
    history = []
    with torch.enable_grad():
        for k in range(steps):
            order = torch.randperm(way * shot)
            for j in range(0, way * shot, batch_size):
                optimizer.zero_grad()
                idx = order[j:j + batch_size]
                logits = metric_logits(sfc, support[idx].detach())
                loss = F.cross_entropy(logits, label_shot[idx])
                loss.backward()
                optimizer.step()
            with torch.no_grad():
                history.append(F.cross_entropy(metric_logits(sfc, support), label_shot).item())
    return sfc, start, history
