"""Image-quality metrics with a common base class (evaluation side of the toolkit)."""
import torch
import torch.nn.functional as F


class IterationMetric:
    """Base class: metrics are computed batch by batch and never need gradients."""
    def __call__(self, y_pred, y):
        y_pred = y_pred.detach()
        y = y.detach()
        return self._compute_tensor(y_pred, y)

    def _compute_tensor(self, y_pred, y):
        raise NotImplementedError


class SSIMMetric(IterationMetric):
    def __init__(self, data_range=1.0, win=5):
        self.c1 = (0.01 * data_range) ** 2
        self.c2 = (0.03 * data_range) ** 2
        self.win = win

    def _pool(self, t):
        return F.avg_pool2d(t, self.win, stride=1, padding=self.win // 2, count_include_pad=False)

    def _compute_tensor(self, y_pred, y):
        mu_x, mu_y = self._pool(y_pred), self._pool(y)
        sxx = self._pool(y_pred * y_pred) - mu_x ** 2
        syy = self._pool(y * y) - mu_y ** 2
        sxy = self._pool(y_pred * y) - mu_x * mu_y
        num = (2 * mu_x * mu_y + self.c1) * (2 * sxy + self.c2)
        den = (mu_x ** 2 + mu_y ** 2 + self.c1) * (sxx + syy + self.c2)
        return (num / den).mean(dim=(1, 2, 3))
