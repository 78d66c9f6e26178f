"""
expect: GL005 main.py:55
dynamic: confirm
source: https://github.com/modelscope/DiffSynth-Studio/pull/844

DiffSynth-Studio's Qwen-Image pipeline injected its blockwise ControlNet into the DiT with
image[:, :L] = image[:, :L] + controlnet.blockwise_forward(image=image[:, :L], ...). The
control block normalises its input (RMSNorm saves it), and that input is a view of image, so the
slice assignment overwrites a tensor the ControlNet's backward still needs; training the
ControlNet failed until PR #844 cloned the slice first. Here a small DiT (frozen) and a
blockwise ControlNet (blockwise_controlnet.py) are trained on a denoising loss; the asserts
show the version-counter error with the original write-back and a working update with the fix.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from blockwise_controlnet import BlockwiseControlNet

torch.manual_seed(0)
torch.set_num_threads(1)

DIM, N_BLOCKS = 32, 3


class DiTBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class TinyDiT(nn.Module):
    def __init__(self):
        super().__init__()
        self.img_in = nn.Linear(16, DIM)
        self.txt_in = nn.Linear(8, DIM)
        self.blocks = nn.ModuleList(DiTBlock(DIM) for _ in range(N_BLOCKS))
        self.proj_out = nn.Linear(DIM, 16)


def model_fn(dit, latents, text, blockwise_controlnet, conditioning, clone_slice=False):
    image = dit.img_in(latents)
    image_seq_len = image.shape[1]
    image = torch.cat([image, dit.txt_in(text)], dim=1)
    for block_id, block in enumerate(dit.blocks):
        image = block(image)
        if not clone_slice:
            image[:, :image_seq_len] = image[:, :image_seq_len] + blockwise_controlnet.blockwise_forward(
                image=image[:, :image_seq_len], conditionings=conditioning, block_id=block_id)
        else:
            image_slice = image[:, :image_seq_len].clone()
            out = blockwise_controlnet.blockwise_forward(image=image_slice, conditionings=conditioning,
                                                         block_id=block_id)
            image[:, :image_seq_len] = image_slice + out
    return dit.proj_out(image[:, :image_seq_len])


def train_step(dit, controlnet, opt, clone_slice):
    clean = torch.randn(2, 16, 16)
    noise = torch.randn_like(clean)
    noisy = 0.7 * clean + 0.7 * noise
    cond = controlnet.process_controlnet_conditioning(torch.randn(2, 3, 16, 16))
    pred = model_fn(dit, noisy, torch.randn(2, 5, 8), controlnet, cond, clone_slice=clone_slice)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad()
    loss.backward()
    opt.step()


dit = TinyDiT().requires_grad_(False)
controlnet = BlockwiseControlNet(DIM, N_BLOCKS)
init = {k: v.clone() for k, v in controlnet.state_dict().items()}
opt = torch.optim.AdamW(controlnet.parameters(), lr=1e-3)
err = None
try:
    train_step(dit, controlnet, opt, clone_slice=False)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err

controlnet.load_state_dict(init)
opt = torch.optim.AdamW(controlnet.parameters(), lr=1e-3)
for _ in range(3):
    train_step(dit, controlnet, opt, clone_slice=True)
w = controlnet.controlnet_blocks[0].output_proj.weight
assert w.abs().sum() > 0  # zero-initialised projection has been trained
print("q06 ok: writing the ControlNet residual back into the saved slice breaks backward")
