"""
expect: none
dynamic: dismiss
source: https://github.com/bowang-lab/MedSAM/issues/233

A user asks why MedSAM's training wrapper runs the prompt encoder inside `with torch.no_grad()`,
thinking it cuts training. The maintainers answer that the prompt encoder is deliberately
frozen (not fine-tuned, per the paper); the image encoder and the mask decoder are trained, and
the no_grad region only covers the frozen box embedding, which is an input to the decoder, not
a path from any trained parameter to the loss. This program rebuilds the wrapper (medsam.py) and
the fine-tuning loop with the optimizer over image encoder + mask decoder, on synthetic box-
prompted segmentation; the asserts show both trained parts get gradients and move, the Dice+BCE
loss falls, and the prompt encoder stays as loaded.
"""
import torch
import torch.nn.functional as F
from medsam import MedSAM

torch.manual_seed(0)


def make_batch(n=8, size=32):
    image = torch.zeros(n, 1, size, size)
    mask = torch.zeros(n, 1, size, size)
    boxes = torch.zeros(n, 4)
    for i in range(n):
        x0, y0 = torch.randint(2, 14, (2,)).tolist()
        x1, y1 = x0 + 12, y0 + 12
        mask[i, :, y0:y1, x0:x1] = 1.0
        image[i] = mask[i] * 0.8 + torch.rand(1, size, size) * 0.3
        boxes[i] = torch.tensor([x0, y0, x1, y1]) / size
    return image, mask, boxes


def seg_loss(logits, target):
    prob = torch.sigmoid(logits)
    dice = 1 - (2 * (prob * target).sum() + 1) / (prob.sum() + target.sum() + 1)
    return dice + F.binary_cross_entropy_with_logits(logits, target)


model = MedSAM()
trainable = list(model.image_encoder.parameters()) + list(model.mask_decoder.parameters())
opt = torch.optim.AdamW(trainable, lr=3e-3)
prompt_before = [p.detach().clone() for p in model.prompt_encoder.parameters()]
enc_before = model.image_encoder.net[0].weight.detach().clone()

image, mask, boxes = make_batch()
losses = []
for step in range(40):
    loss = seg_loss(model(image, boxes), mask)
    opt.zero_grad()
    loss.backward()
    assert model.image_encoder.net[0].weight.grad.abs().sum() > 0
    assert model.mask_decoder.token_proj.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert losses[-1] < losses[0]
assert not torch.equal(model.image_encoder.net[0].weight, enc_before)
assert all(torch.equal(a, b) for a, b in zip(prompt_before, model.prompt_encoder.parameters()))
print(f"p16 ok: loss {losses[0]:.3f} -> {losses[-1]:.3f}; prompt encoder frozen by design")
