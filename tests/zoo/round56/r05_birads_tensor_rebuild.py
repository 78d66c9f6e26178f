"""
expect: GL002 88
dynamic: confirm
source: https://github.com/bhosalems/Breast_cancer_detection/blob/d0a1aec702d7a22b3d4922088241a9951da8ae68/src/models/training.py

A student project fine-tuning the NYU view-split mammography model on BI-RADS
labels.  The CC and MLO branches each return log-probabilities for four labels
(left/right x benign/malignant); the training loop exponentiates them, averages
the malignant-class probability of the two views per label into a Python list,
and then builds the prediction with `final_pred = torch.tensor(final_pred)`.
That copies the numbers into a new tensor with no history.  Because the target
was created with `torch.tensor(gt, requires_grad=True)`, BCELoss still has
something to differentiate, so backward and optimizer.step run without any error
- the gradient just lands on the labels.  The asserts show every model weight
has grad None and is unchanged after training, the label tensor is the only
thing with a gradient, and that stacking the list (`torch.stack`) trains the
branches.
"""
import warnings

import torch
import torch.nn as nn

# torch warns once per batch when a tracked tensor is read as a Python scalar;
# the original run printed the same thing.  Keep the demo output quiet.
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")

torch.manual_seed(0)
torch.set_num_threads(1)

LABELS = ["left_benign", "right_benign", "left_malignant", "right_malignant"]
VIEW_ANGLES = ["CC", "MLO"]


class ViewBranch(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(2, 4, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(16, 4 * 2)

    def forward(self, left, right):
        z = self.conv(torch.cat([left, right], 1)).flatten(1)
        return torch.log_softmax(self.fc(z).view(-1, 4, 2), dim=-1)


class SplitBreastModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleDict({v: ViewBranch() for v in VIEW_ANGLES})

    def forward(self, batch):
        return {v: self.branches[v](batch["L-" + v], batch["R-" + v]) for v in VIEW_ANGLES}


def batch_predictions(y_hat):
    out = {}
    for v in VIEW_ANGLES:
        for i, label in enumerate(LABELS):
            out[label, v] = torch.exp(y_hat[v][:, i])
    return out


def make_exam(g):
    imgs = {f"{s}-{v}": torch.rand(1, 1, 16, 16, generator=g) for s in "LR" for v in VIEW_ANGLES}
    birads = torch.randint(1, 6, (4,), generator=g)
    return imgs, [0 if b < 3 else 1 for b in birads.tolist()]


def train(use_stack, epochs=15):
    torch.manual_seed(0)
    model = SplitBreastModel()
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(5)
    exams = [make_exam(g) for _ in range(6)]
    start = [p.detach().clone() for p in model.parameters()]
    gt = None
    for _ in range(epochs):
        for imgs, labels in exams:
            preds = batch_predictions(model(imgs))
            final_pred = []
            for label in LABELS:
                final_pred.append((preds[label, "CC"][:, 1] + preds[label, "MLO"][:, 1]) / 2)
            gt = torch.tensor([labels], dtype=torch.float, requires_grad=True)
            if use_stack:
                final_pred = torch.stack(final_pred).reshape(gt.shape)
            else:
                final_pred = torch.tensor(final_pred)
                final_pred = final_pred.reshape(gt.shape)
            loss = loss_fn(final_pred, gt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    moved = [not torch.equal(p.detach(), s) for p, s in zip(model.parameters(), start)]
    grads = [p.grad for p in model.parameters()]
    return moved, grads, gt


moved, grads, gt = train(use_stack=False)
assert all(g is None for g in grads), "no weight received a gradient"
assert not any(moved), "weights unchanged after 90 optimizer steps"
assert gt.grad is not None, "the gradient went to the label tensor instead"

moved_f, grads_f, _ = train(use_stack=True)
assert all(g is not None for g in grads_f)
assert all(moved_f)
print("torch.tensor(list): 0 weights moved; torch.stack(list): all weights moved")
