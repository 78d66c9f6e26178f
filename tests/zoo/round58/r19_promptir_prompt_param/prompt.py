"""Prompt generation block for an all-in-one image restoration network."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptGenBlock(nn.Module):
    def __init__(self, prompt_dim=8, prompt_len=3, prompt_size=4, lin_dim=16):
        super().__init__()
        self.prompt_param = nn.Parameter(torch.rand(1, prompt_len, prompt_dim,
                                                    prompt_size, prompt_size))
        self.linear_layer = nn.Linear(lin_dim, prompt_len)
        self.conv3x3 = nn.Conv2d(prompt_dim, prompt_dim, kernel_size=3, padding=1, bias=False)

    def forward(self, x):
        B, C, H, W = x.shape
        emb = x.mean(dim=(-2, -1))
        prompt_weights = F.softmax(self.linear_layer(emb), dim=1)
        prompt = prompt_weights[:, :, None, None, None] * self.prompt_param.data.repeat(B, 1, 1, 1, 1)
        prompt = torch.sum(prompt, dim=1)
        prompt = F.interpolate(prompt, (H, W), mode="bilinear")
        return self.conv3x3(prompt)
