"""
expect: none
dynamic: dismiss
source: https://github.com/christophstach/style-transfer-project/blob/3ae092e41417e52bc61e3299d07ee448c0f7512b/csfnst/utils/extractactivationmaps.py#L7

A fast neural style transfer project collects loss-network activations with
forward hooks: a helper registers a hook on the chosen layers, runs the
network and returns the stored outputs, and the hook stores
`outpt.detach() if detach else outpt`.  A hook that detaches looks like the
classic way to lose the generator's gradient, but the perceptual loss only
asks for `detach=True` when it extracts fixed targets (the Gram matrices of the
style image, computed once, and the content features of the input batch); the
activations of the stylised images are extracted with the default
`detach=False` and stay on the record.  The program rebuilds that helper and
loss around a tiny frozen conv stack and a small image transformation net and
trains it for a few steps.  The asserts check that the stored targets carry no
history while the generated activations do, that every layer of the
transformation net receives a non-zero gradient, and that the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def extract_activation_maps(image_batch, model, layers, detach=False):
    class SaveActivation:
        def __init__(self):
            self.activation = []

        def hook(self, module, inpt, outpt):
            self.activation.append(outpt.detach() if detach else outpt)

    saver = SaveActivation()
    names = list(dict(model.named_children()).keys())
    handles = [model[names.index(str(layer))].register_forward_hook(saver.hook) for layer in layers]
    model(image_batch)
    for handle in handles:
        handle.remove()
    return saver.activation


def gram_matrix(x):
    b, c, h, w = x.shape
    f = x.view(b, c, h * w)
    return f.bmm(f.transpose(1, 2)) / (c * h * w)


class PerceptualLoss(nn.Module):
    def __init__(self, model, content_layers, style_layers, style_image, style_weight=50.0):
        super().__init__()
        self.model = model
        self.content_layers = content_layers
        self.style_layers = style_layers
        self.style_weight = style_weight
        style_feats = extract_activation_maps(style_image.unsqueeze(0), model, style_layers, detach=True)
        self.style_grams = [gram_matrix(f) for f in style_feats]

    def content_loss(self, generated, inputs):
        gen = extract_activation_maps(generated, self.model, self.content_layers)
        tgt = extract_activation_maps(inputs, self.model, self.content_layers, detach=True)
        return sum(F.mse_loss(g, t) for g, t in zip(gen, tgt))

    def style_loss(self, generated):
        gen = extract_activation_maps(generated, self.model, self.style_layers)
        return sum(
            F.mse_loss(gram_matrix(g), s.expand(g.shape[0], -1, -1))
            for g, s in zip(gen, self.style_grams)
        )

    def forward(self, generated, inputs):
        return self.content_loss(generated, inputs) + self.style_weight * self.style_loss(generated)


loss_net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.AvgPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
).eval()
for p in loss_net.parameters():
    p.requires_grad = False

transformer = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.InstanceNorm2d(8, affine=True), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.InstanceNorm2d(8, affine=True), nn.ReLU(),
    nn.Conv2d(8, 3, 3, padding=1), nn.Sigmoid(),
)

style_image = torch.rand(3, 16, 16)
criterion = PerceptualLoss(loss_net, content_layers=[3], style_layers=[1, 3, 6], style_image=style_image)
content = torch.rand(4, 3, 16, 16)

assert all(not g.requires_grad for g in criterion.style_grams)
generated = transformer(content)
assert all(a.requires_grad for a in extract_activation_maps(generated, loss_net, [1, 3, 6]))
assert all(not a.requires_grad for a in extract_activation_maps(generated, loss_net, [1, 3, 6], detach=True))

opt = torch.optim.Adam(transformer.parameters(), lr=1e-2)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = criterion(transformer(content), content)
    loss.backward()
    if step == 0:
        convs = [m for m in transformer if isinstance(m, nn.Conv2d)]
        assert all(m.weight.grad is not None and m.weight.grad.abs().sum() > 0 for m in convs)
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])

print("r04 ok")
