"""
expect: GL003 79
dynamic: confirm
source: https://github.com/ambipomyan/CLIP-fine-tune-example/blob/b3fc1605771bfd8db2369cfac56e55967b3f5581/sample_fine_tune_MNIST.py

A CLIP fine-tuning example (MNIST digits paired with prompts like 'a photo of
the number: "3"') froze every CLIP parameter, attached a new head as
`model.fc = nn.Sequential(...)`, gave only `model.fc.parameters()` to Adam, and
computed the loss from `logits_per_image, logits_per_text = model(images, texts)`.
CLIP's forward never calls `fc`, and all of its own weights were frozen, so the
loss had no grad_fn and backward raised "element 0 of tensors does not require
grad"; the script silenced it with `loss.requires_grad_(True)`. From then on
backward() runs on a leaf, no parameter receives a gradient, and Adam steps on
nothing; the author later dropped the requires_grad_ call (9cafdaf) and then
unfroze CLIP and trained model.parameters() (d30a83d). The reproduction uses a
tiny two-tower CLIP. The asserts show that in the shipped variant the head's
weights and the towers' weights are bit-identical after training and the
contrastive loss does not move, while the fixed variant updates the towers and
lowers the loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES, IMG_DIM, TOK, EMB = 10, 32, 6, 16


class TinyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(IMG_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.token_embedding = nn.Embedding(50, EMB)
        self.text_proj = nn.Linear(EMB, EMB)
        self.logit_scale = nn.Parameter(torch.tensor(2.659))

    def encode_image(self, img):
        return self.visual(img)

    def encode_text(self, tokens):
        return self.text_proj(self.token_embedding(tokens).mean(1))

    def forward(self, img, tokens):
        i = F.normalize(self.encode_image(img), dim=-1)
        t = F.normalize(self.encode_text(tokens), dim=-1)
        logits_per_image = self.logit_scale.exp() * i @ t.t()
        return logits_per_image, logits_per_image.t()


PROTOS = torch.randn(N_CLASSES, IMG_DIM)
PROMPTS = torch.randint(0, 50, (N_CLASSES, TOK))


def batch():
    cls = torch.randperm(N_CLASSES)[:8]
    images = PROTOS[cls] + 0.3 * torch.randn(8, IMG_DIM)
    return images, PROMPTS[cls]


pretrained = TinyCLIP()


def as_shipped(model, steps=50):
    for p in model.parameters():
        p.requires_grad = False
    model.fc = nn.Sequential(nn.Linear(EMB, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
    optimizer = torch.optim.Adam(model.fc.parameters(), lr=1e-3)
    losses = []
    for _ in range(steps):
        images, texts = batch()
        optimizer.zero_grad()
        logits_images, logits_texts = model(images, texts)
        labels = torch.arange(len(images))
        loss = (F.cross_entropy(logits_images, labels) + F.cross_entropy(logits_texts, labels)) / 2
        loss.requires_grad_(True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def fixed(model, steps=50):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        images, texts = batch()
        optimizer.zero_grad()
        logits_images, logits_texts = model(images, texts)
        labels = torch.arange(len(images))
        loss = (F.cross_entropy(logits_images, labels) + F.cross_entropy(logits_texts, labels)) / 2
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


shipped = copy.deepcopy(pretrained)
torch.manual_seed(1)
l_bug = as_shipped(shipped)
assert all(p.grad is None for p in shipped.fc.parameters())
assert all(p.grad is None for p in shipped.visual.parameters())
for a, b in zip(shipped.visual.parameters(), pretrained.visual.parameters()):
    assert torch.equal(a, b)  # nothing moved
assert abs(sum(l_bug[-10:]) / 10 - sum(l_bug[:10]) / 10) < 0.3  # loss only jitters with the batch

good = copy.deepcopy(pretrained)
torch.manual_seed(1)
l_fix = fixed(good)
assert not torch.equal(good.visual[0].weight, pretrained.visual[0].weight)
assert sum(l_fix[-10:]) / 10 < 0.6 * sum(l_fix[:10]) / 10
print("requires_grad_ on loss: nothing trains (%.3f -> %.3f); fixed: %.3f -> %.3f"
      % (sum(l_bug[:10]) / 10, sum(l_bug[-10:]) / 10, sum(l_fix[:10]) / 10, sum(l_fix[-10:]) / 10))
