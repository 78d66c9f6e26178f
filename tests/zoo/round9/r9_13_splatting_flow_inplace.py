"""
expect: GL005 73
dynamic: error
source: https://github.com/sniklaus/softmax-splatting/issues/50

Video frame interpolation with forward splatting. The splatting op is a custom
autograd.Function that saves its input frame and flow with save_for_backward. The
interpolator predicts a flow, scales it to the middle time step, splats frame 0, and then
reuses the same flow buffer for the other direction with an in-place `mul_` before
splatting frame 1. The first splat's saved flow is now a newer version, so the training
backward raises "modified by an inplace operation". The program gradchecks the splat op,
asserts the error from a training step, and shows an out-of-place rescale trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _splat_indices(flow, width):
    xs = torch.arange(width, dtype=flow.dtype).view(1, 1, 1, width)
    target = xs + flow
    left = torch.floor(target)
    frac = target - left
    left = left.long()
    right = left + 1
    valid_l = ((left >= 0) & (left < width)).to(flow.dtype)
    valid_r = ((right >= 0) & (right < width)).to(flow.dtype)
    return left.clamp(0, width - 1), right.clamp(0, width - 1), frac, valid_l, valid_r


class HorizontalSplat(torch.autograd.Function):
    """Forward-warps each pixel horizontally by `flow` pixels with linear weights."""

    @staticmethod
    def forward(ctx, frame, flow):
        b, c, h, w = frame.shape
        left, right, frac, valid_l, valid_r = _splat_indices(flow, w)
        out = frame.new_zeros(b, c, h, w)
        out.scatter_add_(3, left.expand(b, c, h, w), frame * (1 - frac) * valid_l)
        out.scatter_add_(3, right.expand(b, c, h, w), frame * frac * valid_r)
        ctx.save_for_backward(frame, flow)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        frame, flow = ctx.saved_tensors
        b, c, h, w = frame.shape
        left, right, frac, valid_l, valid_r = _splat_indices(flow, w)
        g_left = grad_out.gather(3, left.expand(b, c, h, w)) * valid_l
        g_right = grad_out.gather(3, right.expand(b, c, h, w)) * valid_r
        grad_frame = g_left * (1 - frac) + g_right * frac
        grad_flow = (frame * (g_right - g_left)).sum(dim=1, keepdim=True)
        return grad_frame, grad_flow


splat = HorizontalSplat.apply


class Interpolator(nn.Module):
    def __init__(self, channels=3, reuse_flow_buffer=True):
        super().__init__()
        self.flow_net = nn.Conv2d(2 * channels, 1, 3, padding=1)
        self.blend = nn.Conv2d(2 * channels, channels, 3, padding=1)
        self.reuse_flow_buffer = reuse_flow_buffer

    def forward(self, frame0, frame1, t=0.5):
        flow01 = 2.0 * torch.tanh(self.flow_net(torch.cat([frame0, frame1], dim=1)))
        flow_t = flow01 * t
        warped0 = splat(frame0, flow_t)
        if self.reuse_flow_buffer:
            flow_t.mul_(-(1 - t) / t)
        else:
            flow_t = flow01 * -(1 - t)
        warped1 = splat(frame1, flow_t)
        return self.blend(torch.cat([warped0, warped1], dim=1))


def train_step(model, optimizer, frames):
    frame0, frame_mid, frame1 = frames
    loss = F.l1_loss(model(frame0, frame1), frame_mid)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


frame_d = torch.rand(1, 2, 3, 6, dtype=torch.double, requires_grad=True)
flow_d = (torch.rand(1, 1, 3, 6, dtype=torch.double) * 0.8 + 0.1).requires_grad_()
assert torch.autograd.gradcheck(splat, (frame_d, flow_d))

frames = tuple(torch.rand(2, 3, 8, 12) for _ in range(3))
model = Interpolator(reuse_flow_buffer=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
raised = None
try:
    train_step(model, optimizer, frames)
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

model = Interpolator(reuse_flow_buffer=False)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_step(model, optimizer, frames)
assert model.flow_net.weight.grad is not None and model.flow_net.weight.grad.abs().sum() > 0

print("OK")
