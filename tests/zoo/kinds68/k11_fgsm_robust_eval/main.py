"""
expect: GL003 main.py:39
dynamic: confirm
source: none, invented

Robust-accuracy evaluation of a small CNN. attacks.py holds an FGSM helper that marks the input as requiring
grad, backpropagates the loss and steps along the sign of the input gradient. The evaluation function in
main.py wraps its whole loop in `with torch.no_grad():` (copied from the clean-accuracy evaluation) and calls
the attack inside it; there the model output has no graph and the helper's backward fails with "element 0 of
tensors does not require grad". The asserts catch that RuntimeError; the fixed evaluation, which builds the
adversarial batch with grad enabled and keeps only the scoring forward under no_grad, runs and finds robust
accuracy below clean accuracy on a briefly fitted model.
"""
import torch
import torch.nn as nn

from attacks import fgsm


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(6 * 7 * 7, 10),
    )


def make_loader(n_batches=3, bs=8):
    g = torch.Generator().manual_seed(1)
    return [(torch.rand(bs, 1, 14, 14, generator=g), torch.randint(0, 10, (bs,), generator=g))
            for _ in range(n_batches)]


def evaluate_robust(model, loader, eps):
    model.eval()
    correct = clean = total = 0
    with torch.no_grad():
        for images, labels in loader:
            clean += (model(images).argmax(1) == labels).sum().item()
            adv = fgsm(model, images, labels, eps)
            correct += (model(adv).argmax(1) == labels).sum().item()
            total += labels.numel()
    return clean / total, correct / total


def evaluate_robust_fixed(model, loader, eps):
    model.eval()
    correct = clean = total = 0
    for images, labels in loader:
        adv = fgsm(model, images, labels, eps)
        model.zero_grad(set_to_none=True)
        with torch.no_grad():
            clean += (model(images).argmax(1) == labels).sum().item()
            correct += (model(adv).argmax(1) == labels).sum().item()
        total += labels.numel()
    return clean / total, correct / total


def quick_fit(model, loader, epochs=60):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(epochs):
        for images, labels in loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model(images), labels).backward()
            opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = make_model()
    loader = make_loader()
    quick_fit(model, loader)
    try:
        evaluate_robust(model, loader, eps=0.1)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "does not require grad" in raised
    clean_acc, robust_acc = evaluate_robust_fixed(model, loader, eps=0.1)
    assert clean_acc > 0.5 and robust_acc < clean_acc
    print(f"ok: attack under no_grad fails as expected; fixed eval clean {clean_acc:.2f} robust {robust_acc:.2f}")
