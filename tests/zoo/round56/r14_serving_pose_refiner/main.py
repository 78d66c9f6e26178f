"""
expect: GL003 main.py:33
dynamic: confirm
source: https://github.com/triton-inference-server/pytorch_backend/pull/146

Triton's PyTorch backend always ran the model under a no-grad guard, even when
the model config set INFERENCE_MODE=false. Models that need autograd while
serving, such as differentiable-rendering pose refinement, therefore ran their
inner gradient steps inside a caller's no_grad; the PR runs such models in the
default grad mode instead. This program has the same split. refiner.py is a
pose refiner that optimizes the pose through a silhouette renderer inside
forward, and keeps the coarse pose when the gradient cannot be taken. main.py
plays the serving backend. Under the backend's no_grad the refiner's loss has
no graph, the gradient call fails and is swallowed, and the served pose is
just the coarse guess. The asserts show that the no_grad path returns the
unrefined pose with a large angle error, and that running the model in
default grad mode refines it to the true pose.
"""
import torch

from refiner import PoseRefiner, true_pose

torch.manual_seed(0)
torch.set_num_threads(1)


def execute(model, request, inference_mode):
    """What the backend does for one request."""
    if inference_mode:
        with torch.inference_mode():
            return model(request)
    with torch.no_grad():
        return model(request)


def execute_fixed(model, request, inference_mode):
    if inference_mode:
        with torch.inference_mode():
            return model(request)
    return model(request)


model = PoseRefiner().eval()
gt = true_pose()
with torch.no_grad():
    observed = model.renderer(gt) + 0.02 * torch.randn(16, 16)
coarse = model.coarse_pose(observed)

served = execute(model, observed, inference_mode=False)
assert torch.allclose(served, coarse)
assert abs(served[2] - gt[2]) > 0.5

served_fixed = execute_fixed(model, observed, inference_mode=False)
assert abs(served_fixed[2] - gt[2]) < 0.05, served_fixed
assert (served_fixed[:2] - gt[:2]).norm() < 0.3, served_fixed
print("no_grad serving returns coarse angle %.2f; default mode refines to %.2f (true %.2f)"
      % (served[2].item(), served_fixed[2].item(), gt[2].item()))
