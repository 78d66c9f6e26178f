"""
expect: none
dynamic: dismiss
source: https://github.com/gpleiss/temperature_scaling/blob/126a50975e0cd76c0496c44080bcaf7defca42b3/temperature_scaling.py

Model calibration by temperature scaling (Guo et al. 2017). A wrapper module holds a
frozen classifier and one learnable scalar, the temperature. `calibrate()` first runs the
classifier over the validation loader inside `torch.no_grad()` and caches the logits, then
fits only the temperature with L-BFGS on the NLL of `logits / T`; the ECE numbers and the
printed temperature go through `.item()` purely for logging. This looks like a cut path
(logits produced under no_grad, then a loss is backpropagated through them), but it is
correct: the classifier is meant to stay fixed, and the only trained tensor, the
temperature, enters the graph after the no_grad block. The asserts show the temperature
receives a gradient, moves away from its start value, the validation NLL drops, while the
classifier weights get no gradient and stay bit-identical.
"""
import torch
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CalibratedClassifier(nn.Module):
    def __init__(self, classifier, init_temperature=1.5):
        super().__init__()
        self.classifier = classifier
        self.temperature = nn.Parameter(torch.full((1,), init_temperature))

    def forward(self, x):
        return self.scale_logits(self.classifier(x))

    def scale_logits(self, logits):
        return logits / self.temperature.expand(logits.size(0), 1)

    def calibrate(self, valid_batches, max_iter=60):
        nll = nn.CrossEntropyLoss()
        ece = ExpectedCalibrationError()

        collected_logits, collected_labels = [], []
        with torch.no_grad():
            for inputs, labels in valid_batches:
                collected_logits.append(self.classifier(inputs))
                collected_labels.append(labels)
        logits = torch.cat(collected_logits)
        labels = torch.cat(collected_labels)

        nll_before = nll(logits, labels).item()
        ece_before = ece(logits, labels).item()

        opt = optim.LBFGS([self.temperature], lr=0.05, max_iter=max_iter)

        def closure():
            opt.zero_grad()
            loss = nll(self.scale_logits(logits), labels)
            loss.backward()
            return loss

        opt.step(closure)

        with torch.no_grad():
            nll_after = nll(self.scale_logits(logits), labels).item()
            ece_after = ece(self.scale_logits(logits), labels).item()
        print("T=%.3f  NLL %.4f -> %.4f  ECE %.4f -> %.4f" % (
            self.temperature.item(), nll_before, nll_after, ece_before, ece_after))
        return nll_before, nll_after


class ExpectedCalibrationError(nn.Module):
    def __init__(self, n_bins=10):
        super().__init__()
        edges = torch.linspace(0, 1, n_bins + 1)
        self.lowers, self.uppers = edges[:-1], edges[1:]

    def forward(self, logits, labels):
        probs = F.softmax(logits, dim=1)
        conf, pred = probs.max(1)
        correct = pred.eq(labels).float()
        total = torch.zeros(1)
        for lo, hi in zip(self.lowers, self.uppers):
            in_bin = (conf > lo.item()) & (conf <= hi.item())
            frac = in_bin.float().mean()
            if frac.item() > 0:
                total += (conf[in_bin].mean() - correct[in_bin].mean()).abs() * frac
        return total


def make_overconfident_classifier(n_features=12, n_classes=4):
    net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, n_classes))
    with torch.no_grad():
        net[2].weight.mul_(6.0)  # sharp, overconfident logits
    return net


def main():
    classifier = make_overconfident_classifier()
    frozen_copy = [p.clone() for p in classifier.parameters()]

    x = torch.randn(256, 12)
    y = torch.randint(0, 4, (256,))
    batches = [(x[i:i + 64], y[i:i + 64]) for i in range(0, 256, 64)]

    wrapped = CalibratedClassifier(classifier)
    t0 = wrapped.temperature.detach().clone()
    nll_before, nll_after = wrapped.calibrate(batches)

    # the temperature was trained through the cached (no_grad) logits
    assert wrapped.temperature.grad is not None
    assert not torch.allclose(wrapped.temperature.detach(), t0)
    assert nll_after < nll_before - 1e-3
    # the classifier is untouched, as intended
    for p, q in zip(classifier.parameters(), frozen_copy):
        assert p.grad is None
        assert torch.equal(p, q)
    print("OK: temperature fitted, classifier frozen")


if __name__ == "__main__":
    main()
