"""
expect: GL001 towers.py:27
dynamic: confirm
source: none, invented

A CLIP-style image/text matcher trained on paired synthetic features. `ImageTextMatcher` (towers.py)
owns a learned temperature `logit_scale` (an `nn.Parameter`, initialised to log 2) and multiplies the
cosine similarities by its exponential. The only read of the parameter is `self.logit_scale.detach()`
inside `similarity`, so although `model.parameters()` hands it to Adam in main.py, the contrastive loss
never reaches it and the temperature stays at its initial value, which caps how sharp the logits can get.
The asserts show `logit_scale.grad is None` and the value unchanged after training while both towers
train; the `ScaledMatcher` variant defined here, which reads the parameter attached, gets a gradient and
raises its scale as the pairs become separable.
"""
import math

import torch
import torch.nn as nn

from towers import ImageTextMatcher, Tower, contrastive_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class ScaledMatcher(nn.Module):
    def __init__(self, img_dim=48, txt_dim=24, emb_dim=16):
        super().__init__()
        self.image_tower = Tower(img_dim, emb_dim)
        self.text_tower = Tower(txt_dim, emb_dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.5)))

    def forward(self, images, texts):
        scale = self.logit_scale.exp().clamp(max=100.0)
        return scale * self.image_tower(images) @ self.text_tower(texts).t()


def paired_batch(proj_img, proj_txt, n=32):
    z = torch.randn(n, 8)
    return z @ proj_img + 0.05 * torch.randn(n, 48), z @ proj_txt + 0.05 * torch.randn(n, 24)


def fit(model, steps=150):
    g = torch.Generator().manual_seed(1)
    proj_img, proj_txt = torch.randn(8, 48, generator=g), torch.randn(8, 24, generator=g)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    scale0 = model.logit_scale.item()
    tower0 = model.image_tower.mlp[0].weight.detach().clone()
    for _ in range(steps):
        images, texts = paired_batch(proj_img, proj_txt)
        loss = contrastive_loss(model(images, texts))
        opt.zero_grad()
        loss.backward()
        opt.step()
    tower_moved = not torch.equal(tower0, model.image_tower.mlp[0].weight.detach())
    return scale0, tower_moved


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ImageTextMatcher()
    scale0, tower_moved = fit(model)
    assert model.logit_scale.grad is None
    assert model.logit_scale.item() == scale0
    assert tower_moved

    torch.manual_seed(0)
    model = ScaledMatcher()
    scale0, tower_moved = fit(model)
    assert model.logit_scale.grad is not None
    assert model.logit_scale.item() > scale0
    assert tower_moved
    print("k05: temperature learns only when logit_scale is read attached")
