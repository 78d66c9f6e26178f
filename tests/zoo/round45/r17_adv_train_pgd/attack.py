"""Iterative signed-gradient attack (PGD style) used to craft training examples."""
import torch
import torch.nn.functional as F


def project(x, original_x, epsilon, _type="linf"):
    if _type == "linf":
        max_x = original_x + epsilon
        min_x = original_x - epsilon
        x = torch.max(torch.min(x, max_x), min_x)
    else:
        raise NotImplementedError
    return x


class FastGradientSignUntargeted:
    def __init__(self, model, epsilon, alpha, min_val, max_val, max_iters, _type="linf"):
        self.model = model
        self.epsilon = epsilon
        self.alpha = alpha
        self.min_val = min_val
        self.max_val = max_val
        self.max_iters = max_iters
        self._type = _type

    def perturb(self, original_images, labels, reduction4loss="mean", random_start=False):
        if random_start:
            rand_perturb = torch.empty_like(original_images).uniform_(-self.epsilon, self.epsilon)
            x = original_images + rand_perturb
            x.clamp_(self.min_val, self.max_val)
        else:
            x = original_images.clone()

        x.requires_grad = True

        with torch.enable_grad():
            for _iter in range(self.max_iters):
                outputs = self.model(x, _eval=True)
                loss = F.cross_entropy(outputs, labels, reduction=reduction4loss)
                grads = torch.autograd.grad(loss, x, only_inputs=True)[0]
                x.data += self.alpha * torch.sign(grads.data)
                x = project(x, original_images, self.epsilon, self._type)
                x.clamp_(self.min_val, self.max_val)
        return x
