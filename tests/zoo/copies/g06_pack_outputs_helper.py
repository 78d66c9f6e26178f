"""expect: GL002 32, GL003 33
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/95110

A training script only needs the first output column of a small convolutional classifier, so a
helper walks over the batch, collects each row's first value in a list and packs the list into a
new tensor with torch.Tensor(values), then marks it requires_grad=True because backward()
complained otherwise. The legacy constructor copies the values and drops their history, so the
loss is computed on a fresh leaf: backward() succeeds and the loop keeps printing losses, but no
gradient reaches the network and its weights never move.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(4, 2),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = nn.BCEWithLogitsLoss()


def first_column(outputs):
    values = []
    for row in outputs:
        values.append(row[0])
    packed = torch.Tensor(values)
    packed.requires_grad = True
    return packed


initial = [p.detach().clone() for p in model.parameters()]
for epoch in range(3):
    images = torch.randn(8, 1, 6, 6)
    labels = torch.randint(0, 2, (8,)).float()
    optimizer.zero_grad()
    logits = first_column(model(images))
    loss = criterion(logits, labels)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

for p, p0 in zip(model.parameters(), initial):
    assert p.grad is None
    assert torch.equal(p.detach(), p0)
print("the classifier never received a gradient")
