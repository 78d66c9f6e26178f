"""expect: GL005 23
dynamic: confirm

A chest X-ray lesion classifier returns clamped softmax probabilities in eval mode, clamping the softmax output in place, and the script later computes a saliency map by backpropagating through the model after `model.eval()`. Softmax saved its output for backward, so the eval-branch in-place clamp makes the saliency backward pass fail.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LesionClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.head = nn.Linear(8 * 16, 2)

    def forward(self, x):
        logits = self.head(self.features(x))
        if not self.training:
            probs = torch.softmax(logits, dim=1)
            probs.clamp_(min=1e-4, max=1 - 1e-4)
            return probs
        return logits


def main():
    torch.manual_seed(0)
    model = LesionClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    scans = torch.randn(16, 1, 32, 32)
    labels = (scans[:, :, 8:24, 8:24].mean(dim=(1, 2, 3)) > 0).long()

    model.train()
    for _ in range(20):  # training mode returns logits: no edit, backward works
        loss = F.cross_entropy(model(scans), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()

    # Saliency map for one scan, with batch-norm statistics frozen via eval().
    model.eval()
    scan = scans[:1].clone().requires_grad_(True)
    probs = model(scan)
    try:
        probs[0, 1].backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("saliency backward should fail: softmax output was clamped in place")
    assert scan.grad is None
    print("A2 ok: eval-branch in-place clamp breaks the saliency backward pass")


if __name__ == "__main__":
    main()
