"""
expect: none
dynamic: dismiss
source: https://github.com/ironjr/grokfast/pull/8

Grokfast accelerates grokking by low-pass filtering the gradients between loss.backward() and
optimizer.step(); PR #8 adds a Kalman-filter variant. The filter keeps its state outside the
graph and amplifies the slow component with p.grad.data += x * lamb. These are in-place .data
edits, but of gradient buffers after backward has finished, not of tensors any recorded op saved,
so no later backward is affected. A small MLP learns modular addition with the filter; the
asserts check that each filtered gradient equals the raw gradient plus lamb times the filter
state, that a run that builds the filtered gradients out of place ends with identical weights,
and that the loss goes down.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

P = 13


def gradfilter_kalman(m, grads=None, process_noise=1e-4, measurement_noise=1e-2, lamb=2.0):
    if grads is None:
        grads = {n: {"x": torch.zeros_like(p.grad.data), "P": torch.ones_like(p.grad.data) * measurement_noise}
                 for n, p in m.named_parameters() if p.requires_grad and p.grad is not None}
    for n, p in m.named_parameters():
        if p.requires_grad and p.grad is not None:
            x_pred, P_pred = grads[n]["x"], grads[n]["P"] + process_noise
            K = P_pred / (P_pred + measurement_noise)
            x = x_pred + K * (p.grad.data - x_pred)
            grads[n]["x"], grads[n]["P"] = x, (1 - K) * P_pred
            p.grad.data += x * lamb
    return grads


def reference_filter(m, state, lamb=2.0, process_noise=1e-4, measurement_noise=1e-2):
    new_grads = {}
    for n, p in m.named_parameters():
        g = p.grad.detach().clone()
        x_prev, P_prev = state.get(n, (torch.zeros_like(g), torch.ones_like(g) * measurement_noise))
        P_pred = P_prev + process_noise
        K = P_pred / (P_pred + measurement_noise)
        x = x_prev + K * (g - x_prev)
        state[n] = (x, (1 - K) * P_pred)
        new_grads[n] = g + x * lamb
    for n, p in m.named_parameters():
        p.grad = new_grads[n]


pairs = torch.cartesian_prod(torch.arange(P), torch.arange(P))
labels = (pairs[:, 0] + pairs[:, 1]) % P
inputs = torch.cat([F.one_hot(pairs[:, 0], P), F.one_hot(pairs[:, 1], P)], 1).float()

model = nn.Sequential(nn.Linear(2 * P, 64), nn.ReLU(), nn.Linear(64, P))
ref_model = copy.deepcopy(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
ref_opt = torch.optim.AdamW(ref_model.parameters(), lr=1e-2, weight_decay=1e-2)

grads, ref_state, losses = None, {}, []
for step in range(40):
    loss = F.cross_entropy(model(inputs), labels)
    opt.zero_grad()
    loss.backward()
    raw = {n: p.grad.detach().clone() for n, p in model.named_parameters()}
    grads = gradfilter_kalman(model, grads=grads)
    for n, p in model.named_parameters():
        assert torch.allclose(p.grad, raw[n] + 2.0 * grads[n]["x"])
    opt.step()
    losses.append(loss.item())

    ref_loss = F.cross_entropy(ref_model(inputs), labels)
    ref_opt.zero_grad()
    ref_loss.backward()
    reference_filter(ref_model, ref_state)
    ref_opt.step()

assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), ref_model.parameters()))
assert losses[-1] < losses[0]
print("q20 ok: grokfast's in-place edits of .grad.data after backward are harmless")
