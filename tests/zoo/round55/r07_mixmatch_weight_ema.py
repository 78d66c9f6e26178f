"""
expect: none
dynamic: dismiss
source: https://github.com/YU1ut/MixMatch-pytorch/pull/23

MixMatch semi-supervised training. Labels for the unlabeled batch are guessed under torch.no_grad(),
sharpened and detached; the mixed batch goes through the model and the supervised and consistency losses
train it. The EMA model has its parameters detach_()-ed, and the WeightEMA "optimizer" keeps the tensors
returned by state_dict() of both models and updates them in place after every optimizer step: the EMA
weights with mul_/add_, and the live model's weights with a decoupled weight decay param.mul_(1 - wd).
state_dict() tensors share storage with the parameters but carry no autograd history, and the edits run
after backward and before the next forward, so they neither cut a trained path nor touch a tensor saved
for backward. The PR fixed a Python aliasing slip in this class (rebinding `param = ema_param` instead of
copying), not an autograd problem. The asserts check the gradients and the falling loss of the model, the
exact EMA recurrence and weight decay applied through the state_dict aliases, and that the EMA model and
the guessed labels stay out of the graph.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)

LR, EMA_DECAY, T, ALPHA, LAMBDA_U = 0.02, 0.9, 0.5, 0.75, 5.0


def create_model(ema=False):
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


class WeightEMA(object):
    def __init__(self, model, ema_model, alpha=0.999):
        self.model = model
        self.ema_model = ema_model
        self.alpha = alpha
        self.params = list(model.state_dict().values())
        self.ema_params = list(ema_model.state_dict().values())
        self.wd = 0.02 * LR
        for param, ema_param in zip(self.params, self.ema_params):
            param.data.copy_(ema_param.data)

    def step(self):
        one_minus_alpha = 1.0 - self.alpha
        for param, ema_param in zip(self.params, self.ema_params):
            if ema_param.dtype == torch.float32:
                ema_param.mul_(self.alpha)
                ema_param.add_(param * one_minus_alpha)
                param.mul_(1 - self.wd)


def guess_targets(model, u1, u2):
    with torch.no_grad():
        p = (torch.softmax(model(u1), dim=1) + torch.softmax(model(u2), dim=1)) / 2
        pt = p ** (1 / T)
        targets_u = pt / pt.sum(dim=1, keepdim=True)
        targets_u = targets_u.detach()
    return targets_u


model = create_model()
ema_model = create_model(ema=True)
optimizer = torch.optim.Adam(model.parameters(), lr=LR)
ema_optimizer = WeightEMA(model, ema_model, alpha=EMA_DECAY)

centers = torch.randn(4, 8) * 2
y_l = torch.arange(16) % 4
x_l = centers[y_l] + 0.5 * torch.randn(16, 8)
x_u = centers[torch.randint(0, 4, (32,))] + 0.5 * torch.randn(32, 8)

losses = []
for step in range(40):
    u1, u2 = x_u + 0.1 * torch.randn_like(x_u), x_u + 0.1 * torch.randn_like(x_u)
    targets_u = guess_targets(model, u1, u2)
    assert not targets_u.requires_grad

    all_inputs = torch.cat([x_l, u1, u2])
    all_targets = torch.cat([F.one_hot(y_l, 4).float(), targets_u, targets_u])
    lam = np.random.beta(ALPHA, ALPHA)
    lam = max(lam, 1 - lam)
    idx = torch.randperm(all_inputs.size(0))
    mixed_input = lam * all_inputs + (1 - lam) * all_inputs[idx]
    mixed_target = lam * all_targets + (1 - lam) * all_targets[idx]

    logits = model(mixed_input)
    n = x_l.size(0)
    Lx = -torch.mean(torch.sum(F.log_softmax(logits[:n], dim=1) * mixed_target[:n], dim=1))
    Lu = torch.mean((torch.softmax(logits[n:], dim=1) - mixed_target[n:]) ** 2)
    loss = Lx + LAMBDA_U * Lu

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 0:
        after_opt = [p.detach().clone() for p in model.parameters()]
        ema_before = [p.detach().clone() for p in ema_model.parameters()]
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    ema_optimizer.step()
    if step == 0:
        for p, e, a, e0 in zip(model.parameters(), ema_model.parameters(), after_opt, ema_before):
            assert torch.allclose(e, EMA_DECAY * e0 + (1 - EMA_DECAY) * a, atol=1e-6)
            assert torch.allclose(p.detach(), a * (1 - ema_optimizer.wd), atol=1e-7)
    losses.append(loss.item())

assert all(not p.requires_grad and p.grad is None for p in ema_model.parameters())
assert np.mean(losses[-5:]) < np.mean(losses[:5])
with torch.no_grad():
    acc = (ema_model(x_l).argmax(1) == y_l).float().mean().item()
print(f"loss {np.mean(losses[:5]):.3f} -> {np.mean(losses[-5:]):.3f}; EMA model labelled accuracy {acc:.2f}")
