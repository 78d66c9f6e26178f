"""
expect: GL001 50
dynamic: confirm
source: none, invented

An image classifier trained with autocast and a GradScaler carries a deep-supervision auxiliary head on the
mid-level features. The author adds the auxiliary cross-entropy to the main loss, but builds it from
`aux_logits.detach()` (copied from a line that only logged the auxiliary accuracy), and backpropagates the sum
with `scaler.scale(loss).backward()`. The detached logits are the only path from the auxiliary head to the
loss, so the head never receives a gradient and its weights never move. The asserts show the head's `.grad`
is None and its weights unchanged after several steps, while the fixed variant (no detach) trains it.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.body = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, num_classes)
        self.aux_head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, num_classes))

    def forward(self, x):
        mid = self.stem(x)
        out = self.fc(self.body(mid).flatten(1))
        return out, self.aux_head(mid)


def train(fixed, steps=4):
    torch.manual_seed(0)
    model = SmallNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    aux_before = copy.deepcopy(model.aux_head.state_dict())
    images = torch.randn(16, 3, 16, 16)
    labels = torch.randint(0, 5, (16,))
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits, aux_logits = model(images)
            main_loss = F.cross_entropy(logits.float(), labels)
            if fixed:
                aux_loss = F.cross_entropy(aux_logits.float(), labels)
            else:
                aux_loss = F.cross_entropy(aux_logits.detach().float(), labels)
            loss = main_loss + 0.4 * aux_loss
        scaler.scale(loss).backward()
        aux_grad = model.aux_head[2].weight.grad
        scaler.step(opt)
        scaler.update()
    moved = any(not torch.equal(aux_before[k], v) for k, v in model.aux_head.state_dict().items())
    return aux_grad, moved, model


if __name__ == "__main__":
    torch.set_num_threads(1)
    grad, moved, model = train(fixed=False)
    assert grad is None, "aux head unexpectedly received a gradient"
    assert not moved
    assert model.fc.weight.grad is not None
    grad, moved, _ = train(fixed=True)
    assert grad is not None and grad.abs().sum() > 0
    assert moved
    print("ok: auxiliary head frozen by the detached term; trains once the detach is removed")
