"""
expect: GL005 r05_style_transfer_inplace_relu.py:30
dynamic: confirm
source: https://github.com/pytorch/tutorials/blob/main/advanced_source/neural_style_tutorial.py

Neural style transfer (Gatys) built by walking the children of a VGG-like feature stack
and inserting ContentLoss / StyleLoss modules right after chosen conv layers. The feature
stack ships with `nn.ReLU(inplace=True)`, as torchvision's VGG does. A loss module after
conv_k computes mse_loss on the conv output, which saves that tensor for backward, and
the very next in-place ReLU overwrites it. The tutorial swaps in out-of-place ReLUs for
exactly this reason; the builder here keeps the in-place ones. backward() then fails
with "modified by an inplace operation". The asserts catch that error on the default
build, then rebuild with out-of-place ReLUs and check that optimising the input image
lowers the combined style + content loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_feature_stack():
    # stand-in for a pretrained VGG feature extractor (random weights, no download)
    layers = []
    chans = [3, 8, 16, 16]
    for cin, cout in zip(chans[:-1], chans[1:]):
        layers.append(nn.Conv2d(cin, cout, 3, padding=1))
        layers.append(nn.ReLU(inplace=True))
    layers.insert(4, nn.MaxPool2d(2))
    return nn.Sequential(*layers).eval().requires_grad_(False)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


def gram_matrix(input):
    b, c, h, w = input.size()
    features = input.view(b * c, h * w)
    return features @ features.t() / (b * c * h * w)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        self.loss = F.mse_loss(gram_matrix(input), self.target)
        return input


def get_style_model_and_losses(cnn, style_img, content_img, out_of_place_relu,
                               content_layers=('conv_2',),
                               style_layers=('conv_1', 'conv_2', 'conv_3')):
    content_losses, style_losses = [], []
    model = nn.Sequential()
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f'conv_{i}'
        elif isinstance(layer, nn.ReLU):
            name = f'relu_{i}'
            if out_of_place_relu:
                layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            name = f'pool_{i}'
        else:
            raise RuntimeError(layer)
        model.add_module(name, layer)
        if name in content_layers:
            target = model(content_img).detach()
            cl = ContentLoss(target)
            model.add_module(f'content_loss_{i}', cl)
            content_losses.append(cl)
        if name in style_layers:
            target_feature = model(style_img).detach()
            sl = StyleLoss(target_feature)
            model.add_module(f'style_loss_{i}', sl)
            style_losses.append(sl)
    return model, style_losses, content_losses


def run_style_transfer(cnn, content_img, style_img, input_img, out_of_place_relu,
                       num_steps=40, style_weight=1e4, content_weight=1.0):
    model, style_losses, content_losses = get_style_model_and_losses(
        cnn, style_img, content_img, out_of_place_relu)
    input_img.requires_grad_(True)
    optimizer = torch.optim.Adam([input_img], lr=0.05)
    history = []
    for step in range(num_steps):
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        loss = style_weight * sum(sl.loss for sl in style_losses) \
            + content_weight * sum(cl.loss for cl in content_losses)
        loss.backward()
        optimizer.step()
        history.append(loss.item())
    return input_img.detach(), history


cnn = make_feature_stack()
content_img = torch.rand(1, 3, 24, 24)
style_img = torch.rand(1, 3, 24, 24)

try:
    run_style_transfer(cnn, content_img, style_img, content_img.clone(), out_of_place_relu=False)
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("in-place ReLU build raised:", str(err).splitlines()[0][:90])

out, hist = run_style_transfer(cnn, content_img, style_img, content_img.clone(),
                               out_of_place_relu=True)
print(f"out-of-place build: loss {hist[0]:.4f} -> {hist[-1]:.4f}")
assert hist[-1] < 0.5 * hist[0]
