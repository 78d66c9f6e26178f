"""
expect: GL002 35
dynamic: confirm
source: https://github.com/lfogarty98/dl4ad-project-6-hpc/commit/a12d8c156c872bac22f604f1a490fc99d549dff2

Frame-wise piano-roll transcription trained with binary cross-entropy plus a "polyphony" penalty
that should discourage predicting more distinct pitches than a threshold. The penalty binarises
the predicted roll, counts the used pitches, squares the excess as a Python number and finally
wraps it with torch.tensor(penalty, requires_grad=True) so that it can be added to the loss. The
result is a fresh leaf with no history: backward runs, the penalty gets a gradient of its own, but
not one weight of the model does, so the term never shapes training. The asserts show that the
penalised loss yields exactly the gradients of the plain BCE loss, and that a soft (sigmoid-based)
count of active pitches does move the gradients and lowers the number of predicted pitches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BINS, N_PITCHES = 40, 24


def make_model():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(N_BINS, 64), nn.ReLU(), nn.Linear(64, N_PITCHES))
    nn.init.constant_(model[2].bias, 1.0)  # start out predicting many notes
    return model


def polyphony_penalty(logits, threshold):
    penalty = 0.0
    active = (torch.sigmoid(logits) > 0.5).float()
    n_pitches = int(torch.any(active != 0, dim=0).sum().item())
    if n_pitches > threshold:
        penalty += (n_pitches - threshold) ** 2
    return torch.tensor(float(penalty), requires_grad=True)


def soft_polyphony_penalty(logits, threshold):
    soft_used = torch.sigmoid(logits).amax(dim=0).sum()  # differentiable pitch count
    return F.relu(soft_used - threshold) ** 2


def grads(model, loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


torch.manual_seed(0)
torch.set_num_threads(1)
spec = torch.randn(64, N_BINS)
roll = (torch.rand(64, N_PITCHES) > 0.9).float()
lam, threshold = 0.01, 4

model = make_model()
logits = model(spec)
bce = F.binary_cross_entropy_with_logits(logits, roll)
penalty = polyphony_penalty(logits, threshold)
assert penalty.item() > 0 and penalty.grad_fn is None
g_pen = grads(model, bce + lam * penalty)
g_bce = grads(model, F.binary_cross_entropy_with_logits(model(spec), roll))
assert all(torch.equal(a, b) for a, b in zip(g_pen, g_bce)), "penalty reaches no weight"

soft = soft_polyphony_penalty(model(spec), threshold)
g_soft = grads(model, F.binary_cross_entropy_with_logits(model(spec), roll) + lam * soft)
assert any(not torch.allclose(a, b) for a, b in zip(g_soft, g_bce))


def used_pitches_after_training(penalty_fn, steps=150):
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(steps):
        out = m(spec)
        loss = F.binary_cross_entropy_with_logits(out, roll) + 0.5 * penalty_fn(out, threshold)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return int(torch.any(torch.sigmoid(m(spec)) > 0.5, dim=0).sum())


hard_used = used_pitches_after_training(polyphony_penalty)
soft_used = used_pitches_after_training(soft_polyphony_penalty)
assert soft_used < hard_used, (soft_used, hard_used)
print("pitches used after training: rebuilt penalty %d, soft penalty %d (threshold %d)"
      % (hard_used, soft_used, threshold))
