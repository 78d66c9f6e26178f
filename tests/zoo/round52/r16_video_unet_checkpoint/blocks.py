"""Pseudo-3D video UNet blocks: frozen spatial resnets plus temporal attention, with optional gradient checkpointing."""
import torch
import torch.nn as nn
import torch.utils.checkpoint


class FrameResnet(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv3d(ch, ch, (1, 3, 3), padding=(0, 1, 1))
        self.conv2 = nn.Conv3d(ch, ch, (1, 3, 3), padding=(0, 1, 1))

    def forward(self, x):
        return x + self.conv2(torch.relu(self.conv1(x)))


class TemporalAttention(nn.Module):
    """Attention across frames at every spatial position."""

    def __init__(self, ch):
        super().__init__()
        self.attn_temp = nn.ModuleDict({
            "to_q": nn.Linear(ch, ch, bias=False),
            "to_k": nn.Linear(ch, ch, bias=False),
            "to_v": nn.Linear(ch, ch, bias=False),
            "to_out": nn.Linear(ch, ch),
        })

    def forward(self, x):
        b, c, f, h, w = x.shape
        seq = x.permute(0, 3, 4, 2, 1).reshape(b * h * w, f, c)
        a = self.attn_temp
        att = torch.softmax(a["to_q"](seq) @ a["to_k"](seq).transpose(1, 2) / c ** 0.5, dim=-1)
        out = a["to_out"](att @ a["to_v"](seq))
        return x + out.reshape(b, h, w, f, c).permute(0, 4, 3, 1, 2)


class DownBlock3D(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.resnet = FrameResnet(ch)
        self.attention = TemporalAttention(ch)
        self.gradient_checkpointing = False

    def forward(self, hidden):
        if self.training and self.gradient_checkpointing:
            hidden = torch.utils.checkpoint.checkpoint(self.resnet, hidden, use_reentrant=True)
            hidden = torch.utils.checkpoint.checkpoint(self.attention, hidden, use_reentrant=True)
        else:
            hidden = self.attention(self.resnet(hidden))
        return hidden


class MidBlock3D(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.resnet = FrameResnet(ch)
        self.attention = TemporalAttention(ch)

    def forward(self, hidden):
        return self.attention(self.resnet(hidden))


class UpBlock3D(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.resnet = FrameResnet(ch)
        self.attention = TemporalAttention(ch)
        self.gradient_checkpointing = False

    def forward(self, hidden, skip):
        hidden = hidden + skip
        if self.training and self.gradient_checkpointing:
            hidden = torch.utils.checkpoint.checkpoint(self.resnet, hidden, use_reentrant=True)
            hidden = torch.utils.checkpoint.checkpoint(self.attention, hidden, use_reentrant=True)
        else:
            hidden = self.attention(self.resnet(hidden))
        return hidden


class VideoUNet(nn.Module):
    def __init__(self, in_ch=4, ch=8):
        super().__init__()
        self.conv_in = nn.Conv3d(in_ch, ch, (1, 3, 3), padding=(0, 1, 1))
        self.down = DownBlock3D(ch)
        self.mid = MidBlock3D(ch)
        self.up = UpBlock3D(ch)
        self.conv_out = nn.Conv3d(ch, in_ch, (1, 3, 3), padding=(0, 1, 1))

    def enable_gradient_checkpointing(self):
        self.down.gradient_checkpointing = True
        self.up.gradient_checkpointing = True

    def forward(self, latents):
        h = self.conv_in(latents)
        d = self.down(h)
        m = self.mid(d)
        return self.conv_out(self.up(m, d))
