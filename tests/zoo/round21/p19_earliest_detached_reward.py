"""
expect: none
dynamic: dismiss
source: https://github.com/Thartvigsen/EARLIEST/issues/1

EARLIEST (early classification of time series) trains a halting controller with
REINFORCE. Its reward is self.r = (2*(y_hat == y).float() - 1).detach(), and a reader
asked whether that constant reward can train anything. It can: the reward is a constant
by design, the policy gradient flows through log_pi, the baseline is detached only inside
the advantage, and the classifier trains through cross-entropy. This program rebuilds the
loss. The asserts show the reward has no grad_fn, yet the controller, the baseline, the
RNN and the classifier all receive non-zero gradients, and the total loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EARLIEST(nn.Module):
    def __init__(self, n_in=3, hidden=16, n_cls=2, lam=0.01):
        super().__init__()
        self.rnn = nn.GRUCell(n_in, hidden)
        self.controller = nn.Linear(hidden + 1, 1)
        self.baseline = nn.Linear(hidden + 1, 1)
        self.discriminator = nn.Linear(hidden, n_cls)
        self.lam = lam

    def forward(self, x):                              # x: B x T x n_in
        B, T, _ = x.shape
        h = x.new_zeros(B, self.rnn.hidden_size)
        halted = torch.zeros(B, dtype=torch.bool)
        halt_h = x.new_zeros(B, self.rnn.hidden_size)
        log_pi, baselines, halt_probs, grad_mask = [], [], [], []
        for t in range(T):
            h = self.rnn(x[:, t], h)
            state = torch.cat([h, x.new_full((B, 1), t / T)], dim=1)
            p = torch.sigmoid(self.controller(state)).squeeze(1)
            action = torch.bernoulli(p.detach()) if t < T - 1 else torch.ones(B)
            log_pi.append(torch.log(torch.where(action > 0, p, 1 - p) + 1e-8))
            baselines.append(self.baseline(state.detach()).squeeze(1))
            halt_probs.append(p)
            grad_mask.append((~halted).float())
            newly = (~halted) & (action > 0)
            halt_h = torch.where(newly[:, None], h, halt_h)
            halted = halted | newly
        self.log_pi = torch.stack(log_pi, 1)
        self.baselines = torch.stack(baselines, 1)
        self.halt_probs = torch.stack(halt_probs, 1)
        self.grad_mask = torch.stack(grad_mask, 1)
        return self.discriminator(halt_h)

    def computeLoss(self, logits, y):
        _, y_hat = torch.max(torch.softmax(logits, dim=1), dim=1)
        self.r = (2 * (y_hat.float().round() == y.float()).float() - 1).detach().unsqueeze(1)
        self.R = self.r * self.grad_mask
        b = self.baselines * self.grad_mask
        self.adjusted_reward = self.R - b.detach()
        self.loss_b = F.mse_loss(b, self.R)
        self.loss_r = (-self.log_pi * self.adjusted_reward * self.grad_mask).sum() / self.log_pi.size(1)
        self.loss_c = F.cross_entropy(logits, y)
        self.wait_penalty = (self.halt_probs * self.grad_mask).sum(1).mean()
        return self.loss_r + self.loss_b + self.loss_c + self.lam * self.wait_penalty


x = torch.randn(32, 6, 3)
y = (x[:, :2, 0].sum(1) > 0).long()                    # label visible early in the series
model = EARLIEST()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

logits = model(x)
loss = model.computeLoss(logits, y)
assert model.r.grad_fn is None and not model.r.requires_grad, "the reward is a constant"
loss.backward()
for name in ("controller", "baseline", "rnn", "discriminator"):
    grads = [p.grad for p in getattr(model, name).parameters()]
    assert all(g is not None and g.abs().sum() > 0 for g in grads), f"{name} receives a gradient"
opt.step()

losses = []
for epoch in range(60):
    opt.zero_grad()
    loss_c = 0.0
    for _ in range(4):                                 # average a few sampled rollouts
        logits = model(x)
        loss = model.computeLoss(logits, y) / 4
        loss.backward()
        loss_c += model.loss_c.item() / 4
    opt.step()
    losses.append(loss_c)
assert losses[-1] < losses[0], "classification loss falls while the controller learns"
print(f"ok: detached reward is intended; loss_c {losses[0]:.3f} -> {losses[-1]:.3f}")
