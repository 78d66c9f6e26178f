"""
expect: none
dynamic: dismiss
source: kind D

Knowledge distillation for an image classifier: the student exposes
``extract`` (not forward) returning ``(list_of_stage_features, logits)``.  The
training step replaces each slot of the returned Python list with a 1x1-conv
connector's output (``feats[i] = connectors[i](feats[i])``) and then matches
it against the teacher's features.  Rebinding a list slot is not an in-place
tensor op, so training works and the connectors receive gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, widths):
        super().__init__()
        chans = [3] + list(widths)
        self.stages = nn.ModuleList(
            nn.Sequential(nn.Conv2d(chans[i], chans[i + 1], 3, stride=2, padding=1), nn.ReLU())
            for i in range(len(widths)))
        self.fc = nn.Linear(widths[-1], 10)

    def extract(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats, self.fc(x.mean((2, 3)))


def main():
    torch.manual_seed(9)
    teacher, student = Net([16, 32, 64]).eval(), Net([8, 16, 32])
    connectors = nn.ModuleList(nn.Conv2d(s, t, 1) for s, t in [(8, 16), (16, 32), (32, 64)])
    params = list(student.parameters()) + list(connectors.parameters())
    opt = torch.optim.Adam(params, lr=1e-2)
    x = torch.randn(6, 3, 32, 32)
    y = torch.randint(0, 10, (6,))
    with torch.no_grad():
        t_feats, t_logits = teacher.extract(x)
    history = []
    for _ in range(15):
        feats, logits = student.extract(x)
        hint = 0.0
        for i in range(len(feats)):
            feats[i] = connectors[i](feats[i])
            hint = hint + F.mse_loss(feats[i], t_feats[i])
        kd = F.kl_div(F.log_softmax(logits, -1), F.softmax(t_logits, -1), reduction="batchmean")
        loss = F.cross_entropy(logits, y) + kd + hint
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
    assert all(c.weight.grad is not None for c in connectors)
    assert history[-1] < history[0], history
    print("distilled", history[0], "->", history[-1])


if __name__ == "__main__":
    main()
