"""
expect: GL003 69
dynamic: confirm
source: https://github.com/hu-zijing/B2-DiffuRL/issues/3

Users fine-tuning a diffusion model with RL hit "element 0 of tensors does not require grad";
the thread traces it to the trainable-layer selection matching nothing, so every UNet weight
stayed frozen. Here the trainer freezes the denoiser, re-enables layers by name (the names do
not match), and then silences the error with loss.requires_grad_(True). The step runs, the
loss is a leaf with no history, and no weight changes. The asserts show the loss has no
grad_fn, the denoiser gets no gradient and is unchanged, while correct layer names train it.
"""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyDenoiser(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.time_embed = nn.Linear(1, d)
        self.down = nn.Linear(d, 16)
        self.mid_attn = nn.Linear(16, 16)
        self.up = nn.Linear(16, d)

    def forward(self, x, t):
        h = torch.relu(self.down(x + self.time_embed(t)))
        return self.up(torch.relu(self.mid_attn(h)))


def set_trainable(model, patterns):
    model.requires_grad_(False)
    for name, p in model.named_parameters():
        if any(pat in name for pat in patterns):
            p.requires_grad_(True)


def step_log_prob(model, x_t, t, x_prev, sigma=0.5):
    mean = x_t - model(x_t, t)
    return -((x_prev - mean) ** 2).sum(-1) / (2 * sigma ** 2)


class RLTrainer:
    def __init__(self, model, trainable):
        self.model = model
        set_trainable(model, trainable)
        params = [p for p in model.parameters() if p.requires_grad]
        self.opt = torch.optim.SGD(params or [torch.zeros(1, requires_grad=True)], lr=0.1)

    def rollout(self, n=16, steps=4):
        traj = []
        x = torch.randn(n, 8)
        with torch.no_grad():
            for k in range(steps, 0, -1):
                t = torch.full((n, 1), k / steps)
                x_prev = x - self.model(x, t) + 0.5 * torch.randn_like(x)
                traj.append((x, t, x_prev))
                x = x_prev
        reward = -x.pow(2).mean(-1)
        return traj, (reward - reward.mean()) / (reward.std() + 1e-6)

    def update(self, traj, adv):
        loss = 0.0
        for x_t, t, x_prev in traj:
            loss = loss - (adv * step_log_prob(self.model, x_t, t, x_prev)).mean()
        if not loss.requires_grad:
            loss.requires_grad_(True)  # "fix" for: element 0 of tensors does not require grad
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss


model = TinyDenoiser()
before = {k: v.clone() for k, v in model.state_dict().items()}
trainer = RLTrainer(model, trainable=["attn2.to_k", "attn2.to_v"])  # SD-style names: match nothing
traj, adv = trainer.rollout()
loss = trainer.update(traj, adv)
assert loss.grad_fn is None and loss.is_leaf
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())

ref = TinyDenoiser()
ref.load_state_dict(before)
good = RLTrainer(ref, trainable=["mid_attn", "up"])
loss = good.update(traj, adv)
assert loss.grad_fn is not None
assert not torch.equal(before["mid_attn.weight"], ref.mid_attn.weight)
print("ok: requires_grad_ on a history-less loss trains nothing")
