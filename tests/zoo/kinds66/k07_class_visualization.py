"""
expect: none
dynamic: dismiss
source: none, invented

Class-score visualisation of a frozen small CNN, in the style of "deep dream"/activation-maximisation
scripts. Each step does gradient ascent on the input image, then converts the current image to NumPy to
apply a box blur, a random jitter (np.roll) and clipping to the valid pixel range. A helper in this file,
`to_input_tensor`, turns the regularised array back into a new leaf with requires_grad=True, and the caller
builds the optimizer on that new leaf for the next step. The image is the thing being optimised, the network
is frozen on purpose, so rebuilding the leaf from NumPy each step is the intended design. The asserts show
the target class score rises, the image stays a leaf in [0, 1], and the network weights are untouched.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)


class TinyCNN(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def box_blur(arr, k=3):
    pad = k // 2
    padded = np.pad(arr, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="edge")
    out = np.zeros_like(arr)
    for dy in range(k):
        for dx in range(k):
            out += padded[:, :, dy:dy + arr.shape[2], dx:dx + arr.shape[3]]
    return out / (k * k)


def to_input_tensor(arr):
    return torch.tensor(arr, dtype=torch.float32, requires_grad=True)


def visualise(model, target_class, steps=40, lr=0.1):
    image = to_input_tensor(rng.uniform(0.4, 0.6, size=(1, 3, 32, 32)))
    scores = []
    for step in range(steps):
        optimizer = torch.optim.Adam([image], lr=lr)
        optimizer.zero_grad()
        score = model(image)[0, target_class]
        (-score).backward()
        optimizer.step()
        scores.append(score.item())

        arr = image.detach().cpu().numpy()
        if step % 4 == 0:
            arr = box_blur(arr)
        shift = rng.integers(-1, 2, size=2)
        arr = np.roll(arr, shift=tuple(shift), axis=(2, 3))
        arr = np.clip(arr, 0.0, 1.0)
        image = to_input_tensor(arr)
    return image, scores


if __name__ == "__main__":
    model = TinyCNN()
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    w0 = model.classifier.weight.clone()

    image, scores = visualise(model, target_class=2)
    with torch.no_grad():
        final = model(image)[0, 2].item()
    assert final > scores[0]
    assert image.requires_grad and image.is_leaf
    assert torch.equal(model.classifier.weight, w0)
    assert image.min().item() >= 0.0 and image.max().item() <= 1.0
    print("class score %.3f -> %.3f" % (scores[0], final))
