"""
expect: GL005 main.py:70
dynamic: confirm
source: none, invented

Multi-task learning on tabular customer data: a shared trunk and one head per task (churn, spend, tenure
bucket), plus a denoising reconstruction loss that regularizes the trunk. `train_epoch` computes the trunk
features once, builds one loss per task head in a loop and keeps them in `task_losses`, then calls the helper
`update(trunk_opt, recon_loss, ...)` from train_utils.py, which runs backward and `opt.step()` on the trunk's
optimizer, and only then does `sum(task_losses).backward()`. The task losses all flow through the shared
trunk, whose weights that helper just changed in place, so the backward fails with "modified by an inplace
operation" on the first batch. The asserts catch that error and show the task heads never got a step;
`train_epoch_recon_first`, which runs the reconstruction update before computing the task features, trains the
trunk and every head and lowers all three task losses.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from train_utils import Meter, add_feature_noise, update

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEAT = 24


def build_models(width=64):
    trunk = nn.Sequential(nn.Linear(N_FEAT, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
    heads = nn.ModuleDict({
        "churn": nn.Linear(width, 2),
        "spend": nn.Linear(width, 1),
        "tenure": nn.Linear(width, 4),
    })
    recon = nn.Linear(width, N_FEAT)
    return trunk, heads, recon


CRITERIA = {
    "churn": lambda out, y: F.cross_entropy(out, y),
    "spend": lambda out, y: F.mse_loss(out.squeeze(-1), y),
    "tenure": lambda out, y: F.cross_entropy(out, y),
}


def make_table(n=3000):
    x = torch.randn(n, N_FEAT)
    w = torch.randn(N_FEAT, 3)
    z = torch.tanh(x @ w)
    targets = {
        "churn": (z[:, 0] > 0).long(),
        "spend": z[:, 1] * 2 + 0.5 * z[:, 0],
        "tenure": torch.bucketize(z[:, 2].contiguous(), torch.tensor([-0.5, 0.0, 0.5])),
    }
    return x, targets


def train_epoch(trunk, heads, recon, trunk_opt, head_opt, x, targets, bs=128):
    meters = {task: Meter() for task in heads}
    for idx in torch.randperm(x.shape[0]).split(bs):
        xb = x[idx]
        feats = trunk(xb)
        task_losses = []
        for task, head in heads.items():
            loss = CRITERIA[task](head(feats), targets[task][idx])
            task_losses.append(loss)
            meters[task].add(loss.item())

        recon_loss = F.mse_loss(recon(trunk(add_feature_noise(xb))), xb)
        update(trunk_opt, 0.1 * recon_loss, params=trunk.parameters(), max_norm=5.0)

        head_opt.zero_grad()
        trunk_opt.zero_grad()
        sum(task_losses).backward()
        head_opt.step()
        trunk_opt.step()
    return {task: m.mean for task, m in meters.items()}


def train_epoch_recon_first(trunk, heads, recon, trunk_opt, head_opt, x, targets, bs=128):
    meters = {task: Meter() for task in heads}
    for idx in torch.randperm(x.shape[0]).split(bs):
        xb = x[idx]
        recon_loss = F.mse_loss(recon(trunk(add_feature_noise(xb))), xb)
        update(trunk_opt, 0.1 * recon_loss, params=trunk.parameters(), max_norm=5.0)

        feats = trunk(xb)
        task_losses = []
        for task, head in heads.items():
            loss = CRITERIA[task](head(feats), targets[task][idx])
            task_losses.append(loss)
            meters[task].add(loss.item())

        head_opt.zero_grad()
        trunk_opt.zero_grad()
        sum(task_losses).backward()
        head_opt.step()
        trunk_opt.step()
    return {task: m.mean for task, m in meters.items()}


def make_optimizers(trunk, heads, recon):
    trunk_opt = torch.optim.Adam(list(trunk.parameters()) + list(recon.parameters()), lr=1e-3)
    head_opt = torch.optim.Adam(heads.parameters(), lr=1e-3)
    return trunk_opt, head_opt


def main():
    x, targets = make_table()

    trunk, heads, recon = build_models()
    trunk_opt, head_opt = make_optimizers(trunk, heads, recon)
    heads0 = [p.detach().clone() for p in heads.parameters()]
    try:
        train_epoch(trunk, heads, recon, trunk_opt, head_opt, x, targets)
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised
    assert all(torch.equal(a, b) for a, b in zip(heads0, heads.parameters()))

    torch.manual_seed(0)
    trunk, heads, recon = build_models()
    trunk_opt, head_opt = make_optimizers(trunk, heads, recon)
    trunk0 = [p.detach().clone() for p in trunk.parameters()]
    first = train_epoch_recon_first(trunk, heads, recon, trunk_opt, head_opt, x, targets)
    for epoch in range(15):
        last = train_epoch_recon_first(trunk, heads, recon, trunk_opt, head_opt, x, targets)
    assert not any(torch.equal(a, b) for a, b in zip(trunk0, trunk.parameters()))
    for task in heads:
        assert last[task] < 0.6 * first[task], (task, first[task], last[task])
    print({task: f"{first[task]:.3f} -> {last[task]:.3f}" for task in heads})


if __name__ == "__main__":
    main()
