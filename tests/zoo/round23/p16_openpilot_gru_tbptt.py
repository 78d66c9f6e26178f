"""
expect: none
dynamic: dismiss
source: https://github.com/OpenDriveLab/Openpilot-Deepdive/issues/6

Openpilot-Deepdive trains a recurrent trajectory planner over long frame sequences. The
training loop accumulates the per-frame loss and, every `optimize_per_n_step` frames,
replaces the GRU state with `hidden.clone().detach()` before `total_loss.backward()` and the
optimizer step: truncated backpropagation through time, with the hidden state still carried
forward as a value. The issue asks about this carried state; it is correct. The asserts show
the graph reachable from each truncated loss has a constant size, every parameter gets a
gradient, and the planning loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class PlanningModel(nn.Module):
    def __init__(self, feat=12, hidden=24, num_pts=5, num_modes=3):
        super().__init__()
        self.num_pts, self.num_modes = num_pts, num_modes
        self.backbone = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU())
        self.gru = nn.GRU(hidden, hidden, num_layers=2, batch_first=True)
        self.cls_head = nn.Linear(hidden, num_modes)
        self.traj_head = nn.Linear(hidden, num_modes * num_pts * 2)

    def forward(self, x, hidden):
        out, hidden = self.gru(self.backbone(x).unsqueeze(1), hidden)
        out = out.squeeze(1)
        traj = self.traj_head(out).view(-1, self.num_modes, self.num_pts, 2)
        return self.cls_head(out), traj, hidden


def multimodal_loss(pred_cls, pred_traj, gt):
    err = (pred_traj - gt.unsqueeze(1)).abs().mean((2, 3))      # (B, modes)
    best = err.argmin(1)
    return F.cross_entropy(pred_cls, best), err.gather(1, best[:, None]).mean()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


model = PlanningModel()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
optimize_per_n_step, seq_length, bs = 4, 24, 8
seq_inputs = torch.randn(bs, seq_length, 12)
seq_labels = (seq_inputs[..., :2] * 0.5).unsqueeze(2).repeat(1, 1, 5, 1)

sizes, epoch_losses = [], []
for epoch in range(16):
    hidden = torch.zeros(2, bs, 24)
    total_loss, running = 0, 0.0
    for t in range(seq_length):
        pred_cls, pred_traj, hidden = model(seq_inputs[:, t], hidden)
        cls_loss, reg_loss = multimodal_loss(pred_cls, pred_traj, seq_labels[:, t])
        total_loss += (cls_loss + reg_loss) / optimize_per_n_step
        if (t + 1) % optimize_per_n_step == 0:
            hidden = hidden.clone().detach()
            optimizer.zero_grad()
            sizes.append(graph_size(total_loss))
            total_loss.backward()
            assert all(p.grad is not None for p in model.parameters())
            optimizer.step()
            running += total_loss.item()
            total_loss = 0
    epoch_losses.append(running)

assert len(set(sizes[1:])) == 1 and max(sizes) <= sizes[1], "bounded graph per truncation window"
assert epoch_losses[-1] < 0.8 * epoch_losses[0]
print("p16 ok: detached carried GRU state, constant graph", sizes[1], epoch_losses[0], epoch_losses[-1])
