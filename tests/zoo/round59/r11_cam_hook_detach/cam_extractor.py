"""A small Grad-CAM extractor written the way CAM libraries usually are.

The extractor hooks one layer of a classifier.  On every forward pass the hook
keeps the layer's activation; when asked for a map it takes the gradient of the
chosen class scores with respect to that activation, averages it spatially into
channel weights and sums the weighted activation into one map per image.
"""
import torch
import torch.nn.functional as F


class GradCAMExtractor:
    def __init__(self, model, target_layer, keep_graph=False):
        self.model = model
        self.keep_graph = keep_graph
        self._live_output = None
        self.activation = None
        self._handle = target_layer.register_forward_hook(self._hook_activation)

    def _hook_activation(self, module, inputs, output):
        # the live output is only used to ask autograd for d(score)/d(activation)
        self._live_output = output
        if self.keep_graph:
            self.activation = output
        else:
            self.activation = output.detach()

    def __call__(self, scores, class_idx):
        picked = scores.gather(1, class_idx[:, None]).sum()
        grads, = torch.autograd.grad(picked, self._live_output, retain_graph=True)
        channel_weights = grads.mean(dim=(2, 3), keepdim=True)
        cams = F.relu((channel_weights * self.activation).sum(dim=1))
        return cams

    def remove(self):
        self._handle.remove()
