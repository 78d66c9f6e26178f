"""expect: GL001 decoder.py:23
dynamic: confirm
source: https://github.com/facebookresearch/inversecooking/issues/3

Image-to-ingredients model: an image encoder feeds a greedy ingredient decoder whose
per-step logits are max-pooled into a set prediction, plus a cardinality head on the image
feature. The decoder's sample() returns `torch.stack(logits, 1).data`, so the ingredient loss
is a constant; backward still runs through the cardinality loss, but the decoder never trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from decoder import IngredientDecoder

VOCAB, FEAT, MAX_LEN = 20, 32, 5

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(64, FEAT), nn.Tanh())
decoder = IngredientDecoder(FEAT, VOCAB)
card_head = nn.Linear(FEAT, MAX_LEN + 1)
params = list(encoder.parameters()) + list(decoder.parameters()) + list(card_head.parameters())
opt = torch.optim.Adam(params, lr=1e-3)

for it in range(4):
    images = torch.randn(8, 64)
    ingr_targets = (torch.rand(8, VOCAB) < 0.2).float()
    n_ingr = ingr_targets.sum(1).clamp(max=MAX_LEN).long()

    img_feat = encoder(images)
    logits = decoder.sample(img_feat, MAX_LEN)
    set_logits = logits.max(dim=1).values
    ingr_loss = F.binary_cross_entropy_with_logits(set_logits, ingr_targets)
    card_loss = F.cross_entropy(card_head(img_feat), n_ingr)
    loss = ingr_loss + card_loss

    opt.zero_grad()
    loss.backward()
    opt.step()

assert all(p.grad is None for p in decoder.parameters())
assert encoder[0].weight.grad is not None
print("ok: ingredient decoder never trained")
