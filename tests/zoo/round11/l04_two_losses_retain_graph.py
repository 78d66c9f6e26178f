"""
expect: none
dynamic: dismiss
source: https://github.com/ueoo/AGIS-Net/issues/8

The question: why does AGIS-Net call backward with retain_graph=True in the generator update? The
answer in the thread: one loss is backpropagated first and a second loss that shares the same forward
graph is backpropagated afterwards, so the first call must keep the graph. This program rebuilds that
update: a shape generator and a texture generator share an encoder; loss_shape.backward(retain_graph=
True) is followed by loss_texture.backward() on the same graph, then one optimizer step; nothing is
carried from one iteration to the next. The asserts show the accumulated gradients equal those of
the summed loss, the graph size per iteration stays constant and the weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class GlyphGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.shape_dec = nn.Conv2d(8, 1, 3, padding=1)
        self.texture_dec = nn.Conv2d(8 + 1, 3, 3, padding=1)

    def forward(self, content):
        feat = self.encoder(content)
        shape = torch.sigmoid(self.shape_dec(feat))
        texture = torch.tanh(self.texture_dec(torch.cat([feat, shape], dim=1)))
        return shape, texture


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def backward_G(self, content, gt_shape, gt_texture):
        shape, texture = self.model(content)
        loss_shape = F.l1_loss(shape, gt_shape)
        loss_texture = F.l1_loss(texture, gt_texture)
        size = graph_size(loss_shape) + graph_size(loss_texture)
        loss_shape.backward(retain_graph=True)
        loss_texture.backward()
        return size

    def optimize(self, content, gt_shape, gt_texture):
        self.opt.zero_grad()
        size = self.backward_G(content, gt_shape, gt_texture)
        self.opt.step()
        return size


torch.manual_seed(0)
content = torch.rand(2, 1, 16, 16)
gt_shape = (torch.rand(2, 1, 16, 16) > 0.5).float()
gt_texture = torch.rand(2, 3, 16, 16) * 2 - 1

model = GlyphGenerator()
trainer = Trainer(model)
model.zero_grad()
trainer.backward_G(content, gt_shape, gt_texture)
separate = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
shape, texture = model(content)
(F.l1_loss(shape, gt_shape) + F.l1_loss(texture, gt_texture)).backward()
for g_sep, p in zip(separate, model.parameters()):
    assert torch.allclose(g_sep, p.grad, atol=1e-7)

w0 = model.encoder[0].weight.detach().clone()
sizes = [trainer.optimize(content, gt_shape, gt_texture) for _ in range(5)]
assert len(set(sizes)) == 1, sizes
assert not torch.equal(w0, model.encoder[0].weight)
print("ok: retain_graph needed for the second loss on the same graph; graph size per step", sizes[0])
