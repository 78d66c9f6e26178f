import numpy as np
import torch
import torch.nn.functional as F


def train_step(model, opt, inputs, labels, *, mine_on_cpu=False, keep=0.5):
    logits = model(inputs)
    per_sample = F.cross_entropy(logits, labels, reduction="none")
    k = max(1, int(keep * per_sample.numel()))
    if mine_on_cpu:
        scores = per_sample.detach().cpu().numpy()
        order = np.argsort(-scores, kind="stable")[:k]
        hard = torch.from_numpy(order.astype(np.int64))
    else:
        hard = torch.topk(per_sample.detach(), k).indices
    loss = per_sample[hard].mean()
    opt.zero_grad()
    loss.backward()
    return loss, hard
