"""expect: none
dynamic: dismiss

A rainfall-intensity nowcaster returns logits while training and, only in eval mode, floors its softmax probabilities in place before renormalizing them for the forecast bulletin. The edit never runs during training and nothing backpropagates in eval mode (inference is under `torch.no_grad()`), so the in-place edit is harmless.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RainNowcaster(nn.Module):
    def __init__(self, n_stations=6, hidden=32, n_classes=4):
        super().__init__()
        self.rnn = nn.GRU(n_stations, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, series):  # series: (batch, hours, n_stations)
        _, h = self.rnn(series)
        logits = self.out(h[-1])
        if not self.training:
            probs = torch.softmax(logits, dim=-1)
            probs.clamp_(min=0.01)
            return probs / probs.sum(dim=-1, keepdim=True)
        return logits


def main():
    torch.manual_seed(0)
    model = RainNowcaster()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    series = torch.randn(64, 12, 6)
    labels = (series[:, -3:, :].mean(dim=(1, 2)) * 4 + 2).clamp(0, 3).long()

    model.train()
    losses = []
    for _ in range(60):
        loss = F.cross_entropy(model(series), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
    assert all(p.grad is not None for p in model.parameters())

    model.eval()
    with torch.no_grad():
        probs = model(series)
    assert torch.allclose(probs.sum(dim=-1), torch.ones(64))
    assert (probs > 0.005).all()
    acc = (probs.argmax(-1) == labels).float().mean().item()
    assert acc > 0.6, acc
    print(f"A3 ok: trained ({losses[0]:.3f} -> {losses[-1]:.3f}), eval accuracy {acc:.2f}")


if __name__ == "__main__":
    main()
