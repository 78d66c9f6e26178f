"""
expect: GL005 models.py:53
dynamic: error
source: https://github.com/knazeri/edge-connect/issues/152

edge-connect issue #152 reports "one of the variables needed for gradient
computation has been modified by an inplace operation: [torch.cuda.FloatTensor
[1, 512, 4, 4]] is at version 2; expected version 1" in EdgeModel; the fix was
to run `gen_loss.backward()` before the discriminator's optimizer step. Here
models.py has the same EdgeModel.backward(): it backpropagates the
discriminator loss, calls `self.dis_optimizer.step()`, and only then
backpropagates the generator loss. The generator loss goes through the
discriminator, whose convolutions saved their weights for backward; the
optimizer step updates those weights in place, so the second backward raises.
The program asserts that RuntimeError and shows the reordered update works.
"""
import torch

from models import EdgeModel


def batch():
    gray = torch.rand(2, 1, 16, 16)
    edges = (torch.rand(2, 1, 16, 16) > 0.8).float()
    mask = (torch.rand(2, 1, 16, 16) > 0.5).float()
    return gray, edges, mask


def main():
    torch.manual_seed(0)
    model = EdgeModel()
    _, gen_loss, dis_loss = model.process(*batch())
    try:
        model.backward(gen_loss, dis_loss)
        raise AssertionError("expected the in-place modification error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)

    # generator backward first, then both steps: runs and trains both nets
    model = EdgeModel()
    _, gen_loss, dis_loss = model.process(*batch())
    gen_loss.backward()
    model.discriminator.zero_grad()
    dis_loss.backward()
    model.gen_optimizer.step()
    model.dis_optimizer.step()
    assert all(p.grad is not None for p in model.parameters())
    print("optimizer step before the generator backward raises: confirmed")


if __name__ == "__main__":
    main()
