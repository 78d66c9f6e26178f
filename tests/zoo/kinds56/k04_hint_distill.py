"""
expect: none
dynamic: dismiss
source: none, invented

FitNets-style hint distillation on synthetic 3-class images.  A teacher CNN is trained first and then
frozen; a lambda forward hook on its second conv block stores `o.detach()` into the `teacher_feats`
dict, and a second lambda hook on the student's middle block stores the student's activation as is.
The student is trained with cross-entropy plus an MSE "hint" loss that pulls a 1x1 regressor of its
middle features towards the stored teacher features.  The detached teacher features are a fixed
target of a frozen network, so nothing that should learn loses gradient.  The asserts check that the
student's early conv layer receives gradient from the hint loss alone, that the teacher weights do
not change during distillation, and that the student reaches good accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2))


class ConvNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.block1 = conv_block(1, width)
        self.block2 = conv_block(width, 2 * width)
        self.head = nn.Linear(2 * width, 3)

    def forward(self, x):
        x = self.block2(self.block1(x))
        return self.head(x.mean((2, 3)))


def blobs(n):
    y = torch.randint(0, 3, (n,))
    x = 0.5 * torch.randn(n, 1, 12, 12)
    x[y == 0, :, :6, :6] += 1.5
    x[y == 1, :, 6:, 6:] += 1.5
    x[y == 2, :, 3:9, 3:9] -= 1.5
    return x, y


teacher = ConvNet(16)
opt_t = torch.optim.Adam(teacher.parameters(), lr=3e-3)
for _ in range(60):
    x, y = blobs(64)
    loss = F.cross_entropy(teacher(x), y)
    opt_t.zero_grad()
    loss.backward()
    opt_t.step()
teacher.eval().requires_grad_(False)
frozen = {k: v.clone() for k, v in teacher.state_dict().items()}

teacher_feats, student_feats = {}, {}
teacher.block2.register_forward_hook(lambda m, i, o: teacher_feats.__setitem__("block2", o.detach()))
student = ConvNet(4)
student.block2.register_forward_hook(lambda m, i, o: student_feats.__setitem__("block2", o))
regressor = nn.Conv2d(8, 32, 1)
opt_s = torch.optim.Adam(list(student.parameters()) + list(regressor.parameters()), lr=3e-3)

for step in range(80):
    x, y = blobs(64)
    with torch.no_grad():
        teacher(x)
    logits = student(x)
    hint = F.mse_loss(regressor(student_feats["block2"]), teacher_feats["block2"])
    if step == 0:
        g = torch.autograd.grad(hint, student.block1[0].weight, retain_graph=True)[0]
        assert g.abs().sum() > 0, "hint loss should reach the student's first block"
    loss = F.cross_entropy(logits, y) + 0.5 * hint
    opt_s.zero_grad()
    loss.backward()
    opt_s.step()

assert all(torch.equal(frozen[k], v) for k, v in teacher.state_dict().items())
student.eval()
with torch.no_grad():
    x, y = blobs(500)
    acc = (student(x).argmax(-1) == y).float().mean().item()
assert acc > 0.9, acc
print(f"k04: hint distillation from frozen teacher; student accuracy {acc:.2f}")
