"""
expect: none
dynamic: dismiss
source: https://github.com/HiLab-git/SSL4MIS/blob/master/code/train_mean_teacher_2D.py

Semi-supervised cardiac-MRI-style segmentation with a mean teacher. A small
encoder-decoder (the student) is trained with cross-entropy + Dice on the labelled
slices and with a consistency term that pulls its softmax on the unlabelled slices
towards the teacher's softmax on noisy copies. The teacher is the same network
whose parameters are detached in place at construction (param.detach_()), evaluated
under torch.no_grad(), and updated only as an exponential moving average through
.data (ema.data.mul_(a).add_(...)). All three cuts are intended: the teacher is a
temporal ensemble, not something the optimizer trains. The asserts check that the
student gets gradients from the supervised and the consistency terms, that the
teacher never gets a gradient but does move towards the student, and that the
loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES = 3


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, N_CLASSES, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        return self.dec(torch.cat([self.up(e2), e1], dim=1))


def dice_loss(probs, target):
    onehot = F.one_hot(target, N_CLASSES).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum(dim=(0, 2, 3))
    union = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))
    return 1.0 - ((2 * inter + 1e-5) / (union + 1e-5)).mean()


def create_model(ema=False):
    model = TinyUNet()
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)


student = create_model()
teacher = create_model(ema=True)
optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)

images = torch.randn(8, 1, 16, 16)
labels = (images[:, 0] > 0.3).long() + (images[:, 0] > 1.0).long()
labeled_bs = 4
teacher_start = [p.detach().clone() for p in teacher.parameters()]

losses = []
for step in range(30):
    unlabeled = images[labeled_bs:]
    noise = torch.clamp(torch.randn_like(unlabeled) * 0.1, -0.2, 0.2)
    outputs = student(images)
    outputs_soft = torch.softmax(outputs, dim=1)
    with torch.no_grad():
        ema_output_soft = torch.softmax(teacher(unlabeled + noise), dim=1)

    supervised = 0.5 * (F.cross_entropy(outputs[:labeled_bs], labels[:labeled_bs])
                        + dice_loss(outputs_soft[:labeled_bs], labels[:labeled_bs]))
    consistency = torch.mean((outputs_soft[labeled_bs:] - ema_output_soft) ** 2)
    loss = supervised + 0.1 * consistency

    optimizer.zero_grad()
    if step == 0:
        g_cons = torch.autograd.grad(consistency, student.dec[2].weight, retain_graph=True)[0]
        assert g_cons.abs().sum() > 0, "consistency term trains the student"
    loss.backward()
    optimizer.step()
    update_ema_variables(student, teacher, 0.99, step)
    losses.append(loss.item())

assert all(not p.requires_grad and p.grad is None for p in teacher.parameters())
assert all(p.grad is not None for p in student.parameters())
moved = sum((p - s).abs().sum().item() for p, s in zip(teacher.parameters(), teacher_start))
assert moved > 0, "the EMA update moves the teacher"
assert losses[-1] < losses[0]
print("student loss %.3f -> %.3f, teacher drift %.3f" % (losses[0], losses[-1], moved))
