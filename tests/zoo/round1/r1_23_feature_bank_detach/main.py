"""expect: GL001 helpers.py:15
dynamic: confirm
source: https://github.com/lucidrains/CoCa-pytorch/issues/6

Two files, as in the linked issue: a wrapper class from another module (`helpers.PatchExtractor`) returns the image encoder's embeddings through a method that detaches them (expected finding: helpers.py line 15). This file trains a captioning-style contrastive loss on those embeddings with an optimizer that holds the image encoder, which never receives a gradient (.grad None).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from helpers import ImageEncoder, PatchExtractor

torch.manual_seed(0)
encoder = ImageEncoder()
extract = PatchExtractor(encoder)
text = nn.Embedding(50, 16)
opt = torch.optim.AdamW(list(encoder.parameters()) + list(text.parameters()), lr=1e-3)

images = torch.randn(4, 3, 16, 16)
captions = torch.randint(0, 50, (4, 5))
for _ in range(3):
    img = F.normalize(extract(images).mean(1), dim=-1)
    txt = F.normalize(text(captions).mean(1), dim=-1)
    logits = img @ txt.T / 0.1
    loss = (F.cross_entropy(logits, torch.arange(4)) + F.cross_entropy(logits.T, torch.arange(4))) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
print("image encoder grad:", encoder.patchify.weight.grad)
print("text grad norm:", text.weight.grad.norm().item())
