"""Frozen judge that scores decoded images for prompt faithfulness (VLM stand-in)."""
import numpy as np
import torch
import torch.nn as nn


class Judge(nn.Module):
    def __init__(self, n_prompts=4):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.head = nn.Linear(8 + n_prompts, 2)   # logits for ("no", "yes")
        self.n_prompts = n_prompts
        for p in self.parameters():
            p.requires_grad_(False)

    def preprocess(self, image_uint8):
        arr = image_uint8.astype(np.float32) / 255.0
        return torch.from_numpy(arr).permute(2, 0, 1).unsqueeze(0)

    def yes_probability(self, image_uint8, prompt_id):
        x = self.preprocess(image_uint8)
        feat = self.conv(x).mean(dim=(2, 3))
        onehot = torch.zeros(1, self.n_prompts)
        onehot[0, prompt_id] = 1.0
        probs = self.head(torch.cat([feat, onehot], -1)).softmax(-1)
        return probs[0, 1]
