import torch
import torch.nn as nn


class FeatureNetwork(nn.Module):
    """Frozen feature extractor for the content loss.

    The representation is not the return value of forward(): a forward hook on
    one layer copies that layer's output into self.features['feats'].
    """

    def __init__(self, layer_idx=2):
        super().__init__()
        # stand-in for vgg19(...).features
        self.model = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1),
        )
        for p in self.model.parameters():
            p.requires_grad = False
        self.model.eval()
        self.layer_idx = layer_idx
        self.mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
        self.std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
        self.features = {}
        self.register_hooks()

    def preproc(self, x):
        x = 0.5 * (x + 1)  # generator works in [-1, 1]; ImageNet stats want [0, 1]
        x.sub_(self.mean).div_(self.std)  # normalise in place
        return x

    def forward(self, x):
        return self.model(self.preproc(x))

    def clear_features(self):
        self.features = {}

    def register_hooks(self):
        def hook_fn(module, inputs, output):
            self.features["feats"] = output.detach()

        self.hook_handle = self.model[self.layer_idx].register_forward_hook(hook_fn)


class FeatureNetworkKeepGraph(FeatureNetwork):
    def register_hooks(self):
        def hook_fn(module, inputs, output):
            self.features["feats"] = output

        self.hook_handle = self.model[self.layer_idx].register_forward_hook(hook_fn)
