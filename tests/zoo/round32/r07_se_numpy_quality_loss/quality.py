import numpy as np
import torch


def log_wmse(unprocessed, clean, enhanced, eps=1e-8):
    """Numpy audio-quality metric: log of frequency-weighted MSE, scaled by input level."""
    weights = np.linspace(1.0, 0.2, clean.shape[-1] // 2 + 1)
    err = np.abs(np.fft.rfft(clean - enhanced, axis=-1)) ** 2
    ref = np.mean(unprocessed ** 2, axis=-1) + eps
    return 4 * np.log10(np.mean(weights * err, axis=-1) / ref + eps)


class LogWMSELoss(torch.nn.Module):
    def forward(self, unprocessed, enhanced, clean):
        to_np = lambda t: t.detach().cpu().numpy()
        scores = log_wmse(to_np(unprocessed), to_np(clean), to_np(enhanced))
        loss = torch.tensor(scores.mean(), dtype=torch.float32, requires_grad=True)
        return loss
