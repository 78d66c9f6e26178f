"""Grad-CAM helper used by the LwM (Learning without Memorizing) continual-learning approach."""
import torch
import torch.nn.functional as F


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model
        self.target_layer = target_layer
        self.activations = None
        self.gradients = None

    def __enter__(self):
        def forward_hook(module, inputs, output):
            self.activations = output.detach()

        def backward_hook(module, grad_input, grad_output):
            self.gradients = grad_output[0].detach()

        self._fwd = self.target_layer.register_forward_hook(forward_hook)
        self._bwd = self.target_layer.register_full_backward_hook(backward_hook)
        return self

    def __exit__(self, *exc):
        self._fwd.remove()
        self._bwd.remove()

    def __call__(self, images, class_indices=None):
        model_output = self.model(images)
        if class_indices is None:
            class_indices = model_output.argmax(dim=1)
        score = model_output.gather(1, class_indices[:, None]).sum()
        self.model.zero_grad()
        score.backward()
        with torch.no_grad():
            weights = F.adaptive_avg_pool2d(self.gradients, 1)
            att_map = (weights * self.activations).sum(dim=1, keepdim=True)
            att_map = F.relu(att_map)
        return att_map
