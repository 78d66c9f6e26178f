"""
expect: GL003 31
dynamic: confirm
source: https://github.com/ubc-vision/sonic/issues/2

ubc-vision/sonic issue #2: running the SONIC inpainting script inside a ComfyUI environment failed
with "element 0 of tensors does not require grad and does not have a grad_fn" even though the
maintainers then set requires_grad=True on epsilon_optim_target explicitly; the reporter finally
found that a ComfyUI node had put a global torch.no_grad() around execution, so the function that
optimises the noise by backpropagation was called inside the caller's no-grad region (fixed by
re-enabling grad for that call). This program rebuilds a node that wraps its work in no_grad and
calls sonic_inpaint() (sonic.py), asserts that the optimisation dies in backward with that error
despite the leaf requiring grad, and that the same call under torch.enable_grad() fits the known
pixels.
"""
import torch

from sonic import OneStepGenerator, sonic_inpaint


class SonicInpaintNode:
    """A ComfyUI-style node: the host runs every node's work without autograd."""

    def __init__(self):
        torch.manual_seed(0)
        self.generator = OneStepGenerator()

    def run(self, image, mask):
        with torch.no_grad():
            preview = self.generator(torch.zeros_like(image))
            result = sonic_inpaint(self.generator, image, mask)
        return preview, result

    def run_fixed(self, image, mask):
        with torch.no_grad():
            preview = self.generator(torch.zeros_like(image))
            with torch.enable_grad():
                result = sonic_inpaint(self.generator, image, mask)
        return preview, result


torch.manual_seed(1)
image = torch.rand(1, 3, 16, 16) * 1.6 - 0.8
mask = torch.ones_like(image)
mask[..., 4:12, 4:12] = 0.0          # hole to be filled

node = SonicInpaintNode()
try:
    node.run(image, mask)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "does not require grad" in raised, raised

_, (filled, first_loss, last_loss) = node.run_fixed(image, mask)
assert last_loss < 0.5 * first_loss, (first_loss, last_loss)
assert not filled.requires_grad
print("p07 ok: backprop-based inpainting called inside the caller's no_grad fails in backward")
