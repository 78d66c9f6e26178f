import torch

N_FFT = 64
HOP = 16


def _stft(x, window):
    return torch.stft(x, N_FFT, HOP, window=window, return_complex=True)


def _istft(spec, window, length):
    return torch.istft(spec, N_FFT, HOP, window=window, length=length)


def griffin_lim(mag, length, n_iter=4, momentum=0.99, safe=False):
    """Fast Griffin-Lim phase recovery (momentum variant) so an enhancement net
    trained on magnitudes can be supervised with a waveform loss."""
    window = torch.hann_window(N_FFT)
    angles = torch.ones_like(mag, dtype=torch.complex64)
    accel = torch.zeros_like(angles)
    for _ in range(n_iter):
        tprev = accel
        rebuilt = _stft(_istft(mag * angles, window, length), window)
        if safe:
            accel = rebuilt - tprev * (momentum / (1 + momentum))
        else:
            accel = rebuilt - tprev.mul_(momentum / (1 + momentum))
        angles = accel / (accel.abs() + 1e-16)
    return _istft(mag * angles, window, length)
