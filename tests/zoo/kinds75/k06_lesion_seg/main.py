"""
expect: GL003 main.py:47
dynamic: confirm
source: none, invented

Medical imaging / lesion segmentation. The training script trains a tiny
U-Net-like model with a SegTrainer object and imports `viz_utils` to save mask
overlays for the review dashboard. `viz_utils` calls its own
`_configure_renderer()` from module top level, and that function calls
`torch.set_grad_enabled(False)`, so the import turns autograd off for the whole
training process. `SegTrainer.training_step` then calls backward on a loss
with no graph and raises. The asserts check grad mode after the import, catch
the RuntimeError from the training step, confirm the weights did not move, and
show that after switching recording back on the same step trains the model.
"""
import torch

import viz_utils
from trainer import SegTrainer
from unet_lite import TinySegNet


def synthetic_scans(n=4, batch=4, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    out = []
    for _ in range(n):
        imgs, masks = [], []
        for _ in range(batch):
            cy, cx = torch.randint(8, size - 8, (2,), generator=g)
            r = torch.randint(3, 7, (1,), generator=g)
            lesion = ((yy - cy) ** 2 + (xx - cx) ** 2) < r ** 2
            masks.append(lesion.long())
            imgs.append(0.3 * torch.rand(size, size, generator=g) + 0.6 * lesion.float())
        out.append((torch.stack(imgs).unsqueeze(1), torch.stack(masks)))
    return out


def main():
    assert not torch.is_grad_enabled()
    torch.manual_seed(0)
    trainer = SegTrainer(TinySegNet())
    scans = synthetic_scans()
    snapshot = [p.clone() for p in trainer.model.parameters()]

    try:
        trainer.training_step(scans[0])
        raised = None
    except RuntimeError as err:
        raised = err
    assert raised is not None and "does not require grad" in str(raised)
    assert all(torch.equal(a, b) for a, b in zip(snapshot, trainer.model.parameters()))
    preview = viz_utils.overlay(scans[0][0][0, 0], scans[0][1][0])
    assert preview.shape == (32, 32, 3)

    # fixed: switch recording back on after the dashboard import
    torch.set_grad_enabled(True)
    losses = [trainer.training_step(b) for _ in range(5) for b in scans]
    assert any(not torch.equal(a, b) for a, b in zip(snapshot, trainer.model.parameters()))
    assert losses[-1] < losses[0], losses
    print("k06 ok: viz_utils import disabled grad; training_step raised; re-enabled run trains")


if __name__ == "__main__":
    main()
