"""
expect: GL005 main.py:44
dynamic: confirm
source: https://github.com/RuijieZhu94/MotionGS/issues/3

Dynamic Gaussians are fitted to a short clip with a photometric loss on the current frame
plus a flow loss that compares the Gaussians' displacement between two frames with an
optical-flow target. To save one render per step, the loop keeps the render of frame k+1
and reuses it as the "current" render in the next step. The image branch of that cached
render was never backpropagated, so its matrix product still holds the colours tensor it
saved; optimizer.step() then updates the colours in place between the two backward calls
through that graph, and the next backward fails with "modified by an inplace operation".
The asserts catch that error and show that rendering both frames fresh each step trains.
"""
import torch
import torch.nn.functional as F

from render import DynamicGaussians, gaussian_flow


def make_clip(steps, seed=1):
    torch.manual_seed(seed)
    target = DynamicGaussians()
    target.velocity.data.uniform_(-0.3, 0.3)
    with torch.no_grad():
        frames = [target.render(t)["image"] for t in range(steps + 1)]
        flows = [gaussian_flow(target.render(t), target.render(t + 1)) for t in range(steps)]
    return frames, flows


def train_with_cached_render(model, opt, frames, flows):
    cache = None
    for k in range(len(flows)):
        if cache is None:
            current = model.render(k)
        else:
            current = cache
        following = model.render(k + 1)
        photo = F.mse_loss(current["image"], frames[k])
        flow = F.mse_loss(gaussian_flow(current, following), flows[k])
        loss = photo + flow
        opt.zero_grad()
        loss.backward()
        opt.step()
        cache = following


def train_fresh(model, opt, frames, flows, epochs=30):
    history = []
    for _ in range(epochs):
        total = 0.0
        for k in range(len(flows)):
            current, following = model.render(k), model.render(k + 1)
            photo = F.mse_loss(current["image"], frames[k])
            flow = F.mse_loss(gaussian_flow(current, following), flows[k])
            loss = photo + flow
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        history.append(total)
    return history


torch.manual_seed(0)
torch.set_num_threads(1)
frames, flows = make_clip(steps=4)

model = DynamicGaussians()
opt = torch.optim.Adam(model.parameters(), lr=5e-2)
try:
    train_with_cached_render(model, opt, frames, flows)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

torch.manual_seed(0)
model = DynamicGaussians()
opt = torch.optim.Adam(model.parameters(), lr=5e-2)
history = train_fresh(model, opt, frames, flows)
assert history[-1] < 0.5 * history[0]
print("cached render: backward refused after the step | fresh renders: loss", round(history[0], 4), "->", round(history[-1], 4))
