"""
expect: GL001 53
dynamic: confirm
source: https://discuss.pytorch.org/t/cnn-lstm-for-video-classification/185303

Video action classification with a CNN+LSTM. The model takes a pretrained image CNN,
replaces its final fc layer with a fresh Linear projection (to 300-d in the thread,
smaller here) and feeds the per-frame embeddings to an LSTM. The frame loop runs the
whole CNN, new fc included, inside `with torch.no_grad():` to avoid fine-tuning the
backbone. That also cuts the freshly initialised projection out of the graph: it never
receives a gradient and stays at its random initialisation, while the optimiser is
given its parameters as if they were trained. The asserts show the projection's grad
is None and its weights are unchanged after training steps, and that moving the new
head out of the no_grad block (backbone trunk still frozen) gives it gradients, moves
its weights and the clip loss falls.
"""
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyImageNet(nn.Module):
    """Stand-in for a pretrained ResNet: conv trunk followed by an fc layer."""

    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, 1000)

    def forward(self, x):
        return self.fc(self.trunk(x))


class CNNLSTM(nn.Module):
    def __init__(self, num_classes=3, embed=24, head_outside_no_grad=False):
        super().__init__()
        self.cnn = TinyImageNet()
        self.cnn.trunk.requires_grad_(False)  # pretrained trunk stays frozen
        self.cnn.fc = nn.Sequential(nn.Linear(8, embed))
        self.lstm = nn.LSTM(input_size=embed, hidden_size=32, num_layers=1)
        self.fc1 = nn.Linear(32, 16)
        self.fc2 = nn.Linear(16, num_classes)
        self.head_outside_no_grad = head_outside_no_grad

    def frame_embedding(self, frame):
        if self.head_outside_no_grad:
            with torch.no_grad():
                feat = self.cnn.trunk(frame)
            return self.cnn.fc(feat)
        with torch.no_grad():
            x = self.cnn(frame)
        return x

    def forward(self, clips):
        hidden = None
        for t in range(clips.size(1)):
            x = self.frame_embedding(clips[:, t])
            out, hidden = self.lstm(x.unsqueeze(0), hidden)
        x = F.relu(self.fc1(out.squeeze(0)))
        return self.fc2(x)


def make_clips(n=24, frames=4):
    labels = torch.arange(n) % 3
    clips = torch.randn(n, frames, 3, 16, 16) * 0.3
    for i, y in enumerate(labels):
        clips[i, :, y] += 1.0  # class shows up as a colour channel shift
    return clips, labels


def train(model, steps=80):
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=1e-2)
    clips, labels = make_clips()
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(clips), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    torch.manual_seed(1)
    model = CNNLSTM()
    head_before = model.cnn.fc[0].weight.clone()
    losses_bug = train(model)
    assert model.cnn.fc[0].weight.grad is None
    assert torch.equal(head_before, model.cnn.fc[0].weight)
    print(f"no_grad head: projection untouched, loss {losses_bug[0]:.3f} -> {losses_bug[-1]:.3f}")

    torch.manual_seed(1)
    fixed = CNNLSTM(head_outside_no_grad=True)
    fixed_before = fixed.cnn.fc[0].weight.clone()
    losses_fix = train(fixed)
    assert fixed.cnn.fc[0].weight.grad is not None
    assert fixed.cnn.fc[0].weight.grad.abs().sum() > 0
    assert not torch.equal(fixed_before, fixed.cnn.fc[0].weight)
    print(f"trainable head: loss {losses_fix[0]:.3f} -> {losses_fix[-1]:.3f}")
    assert losses_fix[-1] < 0.2 * losses_fix[0]


if __name__ == "__main__":
    main()
