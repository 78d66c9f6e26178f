"""
expect: none
dynamic: dismiss
source: https://github.com/namle24/DLEnhance_ImageQuality/blob/HEAD/SiameseESRGAN/losses/distillation_loss.py

Feature distillation for a super-resolution student: a DistillationLoss object
compares the student's features with a frozen teacher's and detaches the teacher
side inside the loss. That detach is on purpose (the teacher is a fixed target),
and the student path stays attached. The asserts show every student parameter
gets a non-zero gradient, the teacher gets none, and a few steps lower the loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class DistillationLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse = nn.MSELoss()

    def forward(self, student_feat, teacher_feat):
        return self.mse(student_feat, teacher_feat.detach())


class SRNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(width, 16, 3, padding=1))
        self.up = nn.Sequential(nn.Conv2d(16, 12, 3, padding=1), nn.PixelShuffle(2))

    def forward(self, x):
        feat = self.body(x)
        return self.up(feat), feat


teacher, student = SRNet(32), SRNet(8)
teacher.eval()
criterion = DistillationLoss()
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
lr_img = torch.rand(4, 3, 8, 8)
hr_img = torch.rand(4, 3, 16, 16)

losses = []
for step in range(8):
    opt.zero_grad()
    sr, s_feat = student(lr_img)
    _, t_feat = teacher(lr_img)
    loss = nn.functional.l1_loss(sr, hr_img) + criterion(s_feat, t_feat)
    loss.backward()
    if step == 0:
        for name, p in student.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        assert all(p.grad is None for p in teacher.parameters())
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], losses
print("ok", losses[0], losses[-1])
