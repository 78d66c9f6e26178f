"""Process-wide runtime settings for the backtesting stack.

Backtests must be bit-for-bit reproducible, so every entry point imports this module.
"""
import os

import torch

SETTINGS = {
    "threads": int(os.environ.get("BT_THREADS", "1")),
    "seed": 1234,
}


def configure_runtime(settings):
    torch.set_num_threads(settings["threads"])
    torch.use_deterministic_algorithms(True)
    # backtests only evaluate frozen models: no graphs, less memory
    torch.set_grad_enabled(False)
    return settings


ACTIVE = configure_runtime(SETTINGS)
