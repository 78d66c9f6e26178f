"""expect: GL001 blocks.py:48
dynamic: confirm
source: https://github.com/showlab/Tune-A-Video/issues/69

One-shot text-to-video tuning: a pretrained image UNet inflated to video is frozen as a whole, only the
temporal-attention projections (attn_temp) are switched back to trainable, and gradient checkpointing is on.
The down block wraps its frozen resnet and its attention in reentrant torch.utils.checkpoint. Reentrant
checkpoint runs the wrapped forward under no_grad and only records a node when some *input* requires grad;
here the input comes from the frozen conv_in applied to noisy latents, so the attention output is cut from
the graph and the trainable attn_temp weights of the down block never get a gradient (the report: the
down_blocks temporal weights stay zero-gradient, with or without several GPUs). The mid and up blocks still
train because their inputs carry grad from the mid block. The asserts show the down block's attn_temp .grad
stays None and its weights do not move, while the mid/up ones train, and that without checkpointing (or
with the non-reentrant variant) the down block gets the same gradient as the plain forward.
"""
import warnings

import torch
import torch.nn.functional as F

from blocks import VideoUNet

torch.manual_seed(0)
torch.set_num_threads(1)

TRAINABLE = ("attn_temp.to_q", "attn_temp.to_k", "attn_temp.to_v", "attn_temp.to_out")


def build_unet(checkpointing):
    torch.manual_seed(2)
    unet = VideoUNet()
    unet.requires_grad_(False)
    for name, module in unet.named_modules():
        if name.endswith(TRAINABLE):
            for p in module.parameters():
                p.requires_grad = True
    if checkpointing:
        unet.enable_gradient_checkpointing()
    return unet.train()


def tune(unet, video_latents, steps=15):
    params = [p for p in unet.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-2)
    before = {n: p.detach().clone() for n, p in unet.named_parameters() if p.requires_grad}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(steps):
            noise = torch.randn_like(video_latents)
            noisy = video_latents + 0.5 * noise
            loss = F.mse_loss(unet(noisy), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
    moved = {n: not torch.equal(before[n], p) for n, p in unet.named_parameters() if p.requires_grad}
    return moved, [str(w.message) for w in caught]


latents = torch.randn(1, 4, 6, 8, 8)  # batch, channels, frames, height, width

unet = build_unet(checkpointing=True)
moved, msgs = tune(unet, latents)
assert any("None of the inputs have requires_grad=True" in m for m in msgs)
down = [n for n in moved if n.startswith("down.")]
rest = [n for n in moved if n.startswith(("mid.", "up."))]
assert down and rest
assert all(unet.get_parameter(n).grad is None for n in down)
assert not any(moved[n] for n in down)
assert all(moved[n] for n in rest)

unet = build_unet(checkpointing=False)
moved, _ = tune(unet, latents)
assert all(moved.values())

# Same single-step gradient from the plain forward and from a non-reentrant checkpoint of the down block.
plain = build_unet(checkpointing=False)
F.mse_loss(plain(latents), torch.zeros_like(latents)).backward()
nonre = build_unet(checkpointing=False)
h = nonre.conv_in(latents)
d = torch.utils.checkpoint.checkpoint(nonre.down, h, use_reentrant=False)
F.mse_loss(nonre.conv_out(nonre.up(nonre.mid(d), d)), torch.zeros_like(latents)).backward()
for n in down:
    assert torch.allclose(plain.get_parameter(n).grad, nonre.get_parameter(n).grad, atol=1e-6)
print("ok: reentrant checkpoint leaves %d down-block attn_temp tensors without grad; plain forward trains them" % len(down))
