"""
expect: none
dynamic: dismiss
source: https://github.com/jessemelpolio/non-stationary_texture_syn/issues/15

A user asked whether `style_loss.backward(retain_graph=True)` followed by
`(perceptual_loss + gan_G).backward()` differs from one backward on the sum; the author replied the
outcome should be nearly the same. This program rebuilds the generator update of a texture-expansion
GAN with those two backward calls per step. The retain_graph is needed because both terms share the
generator's forward graph, it is released by the second backward, and nothing is carried between
iterations. The asserts check the accumulated gradients equal those of a single backward on the sum,
that dropping retain_graph raises the "backward through the graph a second time" error, and that the
graph reachable from each step's loss stays the same size over iterations while the generator
trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class Expander(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                 nn.Upsample(scale_factor=2), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())

    def forward(self, x):
        return self.net(x)


features = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.ReLU()).requires_grad_(False)
critic = nn.Sequential(nn.Conv2d(3, 4, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(4, 1, 3)).requires_grad_(False)


def generator_losses(G, source, target):
    fake = G(source)
    style_loss = F.mse_loss(gram(features(fake)), gram(features(target)))
    perceptual_loss = F.mse_loss(features(fake), features(target))
    pred = critic(fake)
    gan_G = F.binary_cross_entropy_with_logits(pred, torch.ones_like(pred))
    return style_loss, perceptual_loss, gan_G


source = torch.randn(2, 3, 8, 8)
target = torch.tanh(torch.randn(2, 3, 16, 16))

G = Expander()
opt = torch.optim.Adam(G.parameters(), lr=1e-3)

# Same gradients as one backward on the sum.
style_loss, perceptual_loss, gan_G = generator_losses(G, source, target)
style_loss.backward(retain_graph=True)
(perceptual_loss + gan_G).backward()
split = [p.grad.clone() for p in G.parameters()]
G.zero_grad()
style_loss, perceptual_loss, gan_G = generator_losses(G, source, target)
(style_loss + perceptual_loss + gan_G).backward()
assert all(torch.allclose(a, p.grad, atol=1e-7) for a, p in zip(split, G.parameters()))
G.zero_grad()

# Without retain_graph the second call fails: the flag is needed here.
style_loss, perceptual_loss, gan_G = generator_losses(G, source, target)
style_loss.backward()
try:
    (perceptual_loss + gan_G).backward()
    raise AssertionError("expected the second backward to fail without retain_graph")
except RuntimeError as err:
    assert "second time" in str(err), err
G.zero_grad()

sizes, first, w0 = [], None, G.net[0].weight.detach().clone()
for step in range(8):
    opt.zero_grad()
    style_loss, perceptual_loss, gan_G = generator_losses(G, source, target)
    style_loss.backward(retain_graph=True)
    (perceptual_loss + gan_G).backward()
    opt.step()
    sizes.append(graph_size(style_loss))
    first = style_loss.item() if first is None else first
assert len(set(sizes)) == 1, sizes
assert not torch.equal(w0, G.net[0].weight.detach())
assert style_loss.item() < first
print("ok: retain_graph between two backward calls on one step's graph is needed and bounded")
