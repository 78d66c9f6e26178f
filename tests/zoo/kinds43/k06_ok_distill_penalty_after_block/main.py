"""
expect: none
dynamic: dismiss
source: kinds check 43, kind 3

Distilling a frozen wide teacher into a narrow student that forecasts electricity load from calendar/weather
features, with a proximal term. In one `with torch.no_grad():` block the author takes the student's current
predictions (the proximal anchor), the teacher's predictions, and a drift figure between the two that is only
logged with `.item()`. After the block the loss uses the anchor as a constant target beside the freshly recomputed
(attached) predictions, and the distillation penalty is recomputed from the fresh predictions and the teacher's, so
it does carry a gradient. The asserts show that the full loss's gradient differs from the gradient without the
distillation penalty, that every student parameter moved, and that the student's distance to the teacher fell.
"""
import torch
import torch.nn.functional as F

from models import Regressor, frozen_teacher

torch.manual_seed(6)

N, FEAT = 512, 10
MU, LAM = 0.1, 1.0


def main():
    x = torch.randn(N, FEAT)
    teacher = frozen_teacher(FEAT)
    y = teacher(x) + 0.3 * torch.randn(N)
    student = Regressor(FEAT, 8)
    opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    params = list(student.parameters())
    start = [p.detach().clone() for p in params]
    drift_log = []

    for step in range(100):
        with torch.no_grad():
            anchor = student(x)
            soft_target = teacher(x)
            drift = (anchor - soft_target).pow(2).mean()
        drift_log.append(drift.item())

        pred = student(x)
        task = F.mse_loss(pred, y)
        proximal = MU * (pred - anchor).pow(2).mean()
        distill = LAM * (pred - soft_target).pow(2).mean()
        loss = task + proximal + distill

        if step == 10:
            g_full = torch.autograd.grad(loss, params, retain_graph=True)
            g_wo = torch.autograd.grad(task + proximal, params, retain_graph=True)
            assert max((a - b).abs().max().item() for a, b in zip(g_full, g_wo)) > 1e-3

        opt.zero_grad()
        loss.backward()
        opt.step()

    assert all(not torch.equal(a, p.detach()) for a, p in zip(start, params))
    assert drift_log[-1] < 0.5 * drift_log[0], (drift_log[0], drift_log[-1])
    print(f"student drift from teacher: {drift_log[0]:.4f} -> {drift_log[-1]:.4f}")


if __name__ == "__main__":
    main()
