"""Export a trained beat classifier to TorchScript for the bedside monitor.

Run as `python -m ecg.export checkpoint.pt out.pt`.
"""
import sys

import torch

from .model import BeatCNN


def export_torchscript(model, path, n_samples=256):
    model.eval()
    example = torch.zeros(1, n_samples)
    scripted = torch.jit.trace(model, example)
    scripted.save(path)
    return path


if __name__ == "__main__":
    torch.set_grad_enabled(False)
    model = BeatCNN()
    model.load_state_dict(torch.load(sys.argv[1]))
    export_torchscript(model, sys.argv[2])
