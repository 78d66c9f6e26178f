"""expect: none
dynamic: none
source: https://github.com/jacobgil/pytorch-grad-cam/issues/33

Grad-CAM on a small CNN: a forward hook stores the last conv block's
activations and a tensor hook captures their gradient. To select the class
score, a one-hot vector is built in numpy, converted with torch.from_numpy and
marked `.requires_grad_(True)`, then multiplied with the logits and summed. The
one-hot is a fresh leaf, but it is only a selection mask: the history of the
logits is intact, so backward reaches the activations (and the network) and the
CAM is exactly the one obtained by differentiating the chosen logit directly.
Setting requires_grad on the mask is merely unnecessary, not harmful.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).mean(dim=(2, 3)))


class GradCam:
    def __init__(self, model, target_layer):
        self.model = model
        self.activations, self.gradients = None, None
        target_layer.register_forward_hook(self._save_activation)

    def _save_activation(self, module, inp, out):
        self.activations = out
        out.register_hook(self._save_gradient)

    def _save_gradient(self, grad):
        self.gradients = grad

    def __call__(self, x, index=None):
        output = self.model(x)
        if index is None:
            index = int(np.argmax(output.detach().cpu().numpy()))
        one_hot = np.zeros((1, output.size()[-1]), dtype=np.float32)
        one_hot[0][index] = 1
        one_hot = torch.from_numpy(one_hot).requires_grad_(True)
        one_hot = torch.sum(one_hot * output)
        self.model.zero_grad()
        one_hot.backward(retain_graph=True)
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1))
        return cam.detach(), index


def main():
    torch.manual_seed(0)
    model = SmallCNN()
    cam_fn = GradCam(model, model.features)
    img = torch.randn(1, 3, 12, 12)
    cam, idx = cam_fn(img)

    acts = model.features(img)
    score = model.fc(acts.mean(dim=(2, 3)))[0, idx]
    g = torch.autograd.grad(score, acts)[0]
    expected = F.relu((g.mean(dim=(2, 3), keepdim=True) * acts).sum(dim=1)).detach()
    assert cam_fn.gradients is not None
    assert torch.allclose(cam, expected, atol=1e-6)
    assert model.fc.weight.grad is not None
    print("Grad-CAM gradients flow through the logits; CAM matches direct differentiation")


if __name__ == "__main__":
    main()
