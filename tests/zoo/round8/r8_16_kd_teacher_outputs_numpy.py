"""
expect: none
dynamic: dismiss
source: https://github.com/haitongli/knowledge-distillation-pytorch/issues/25

Knowledge distillation as in knowledge-distillation-pytorch: before each
epoch the (frozen, eval-mode) teacher's logits for every batch are computed
once, taken out of the graph with `.data.cpu().numpy()` and cached; in the
training loop they are rebuilt with torch.from_numpy(...) and wrapped in
Variable(..., requires_grad=False) as the soft targets of the KD loss. This
numpy round trip and rebuild is intended: the teacher is not trained (it is in
no optimizer), and the student's path to the loss is untouched. Asserted: the
student gets gradients and its KD loss falls; the teacher never changes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)


def fetch_teacher_outputs(teacher, batches):
    teacher.eval()
    outputs = []
    for x, _ in batches:
        outputs.append(teacher(x).data.cpu().numpy())
    return outputs


def loss_fn_kd(outputs, labels, teacher_outputs, alpha=0.9, T=4.0):
    soft = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(outputs / T, dim=1), F.softmax(teacher_outputs / T, dim=1))
    return soft * (alpha * T * T) + F.cross_entropy(outputs, labels) * (1.0 - alpha)


teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 4))
optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)
batches = [(torch.randn(16, 10), torch.randint(0, 4, (16,))) for _ in range(4)]
teacher_before = [p.detach().clone() for p in teacher.parameters()]

epoch_losses = []
for epoch in range(15):
    teacher_outputs = fetch_teacher_outputs(teacher, batches)
    student.train()
    total = 0.0
    for i, (x, y) in enumerate(batches):
        output_teacher_batch = torch.from_numpy(teacher_outputs[i])
        output_teacher_batch = Variable(output_teacher_batch, requires_grad=False)
        loss = loss_fn_kd(student(x), y, output_teacher_batch)
        optimizer.zero_grad()
        loss.backward()
        assert all(p.grad is not None for p in student.parameters())
        optimizer.step()
        total += loss.item()
    epoch_losses.append(total / len(batches))

assert epoch_losses[-1] < 0.8 * epoch_losses[0], epoch_losses
assert all(torch.equal(a, b) for a, b in zip(teacher_before, teacher.parameters()))
print("OK: student distills from cached numpy teacher logits (%.3f -> %.3f)" % (epoch_losses[0], epoch_losses[-1]))
