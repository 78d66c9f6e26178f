"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/detr/issues/533

A DETR-style set-prediction loss. The Hungarian matcher runs under `@torch.no_grad()`:
it builds the query-to-target cost matrix from the class probabilities and the boxes,
solves the assignment and returns only integer indices. The question in the linked
issue is how gradients can flow when the matching is done without autograd (and with
SciPy in DETR). They flow because the criterion indexes the live `pred_logits` and
`pred_boxes` with those indices and computes the classification and L1 box losses on
them with autograd on; the indices are constants, as they should be. The asserts check
that the matcher output carries no graph, that both the class head and the box head get
non-zero gradients, and that the loss falls over a few optimizer steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from matcher import HungarianMatcher

NUM_CLASSES, NUM_QUERIES = 4, 5


class TinyDETRHead(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.query_embed = nn.Embedding(NUM_QUERIES, d)
        self.proj = nn.Linear(8, d)
        self.class_embed = nn.Linear(d, NUM_CLASSES + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 4))

    def forward(self, feats):
        h = self.query_embed.weight.unsqueeze(0) + self.proj(feats).mean(1, keepdim=True)
        return {"pred_logits": self.class_embed(h), "pred_boxes": self.bbox_embed(h).sigmoid()}


class SetCriterion(nn.Module):
    def __init__(self, matcher, eos_coef=0.1):
        super().__init__()
        self.matcher = matcher
        weight = torch.ones(NUM_CLASSES + 1)
        weight[-1] = eos_coef
        self.register_buffer("empty_weight", weight)

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for src, _ in indices])
        target_classes = torch.full(outputs["pred_logits"].shape[:2], NUM_CLASSES, dtype=torch.long)
        target_classes[batch_idx, src_idx] = torch.cat([t["labels"][j] for t, (_, j) in zip(targets, indices)])
        loss_ce = F.cross_entropy(outputs["pred_logits"].transpose(1, 2), target_classes, self.empty_weight)
        src_boxes = outputs["pred_boxes"][batch_idx, src_idx]
        tgt_boxes = torch.cat([t["boxes"][j] for t, (_, j) in zip(targets, indices)])
        loss_bbox = F.l1_loss(src_boxes, tgt_boxes)
        return loss_ce + 5.0 * loss_bbox, indices


torch.manual_seed(0)
torch.set_num_threads(1)
feats = torch.randn(2, 6, 8)
targets = [{"labels": torch.tensor([1, 3]), "boxes": torch.tensor([[0.3, 0.3, 0.2, 0.2], [0.7, 0.6, 0.1, 0.3]])},
           {"labels": torch.tensor([0, 2, 2]), "boxes": torch.rand(3, 4) * 0.5 + 0.25}]

model = TinyDETRHead()
criterion = SetCriterion(HungarianMatcher())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)

losses = []
for step in range(30):
    outputs = model(feats)
    loss, indices = criterion(outputs, targets)
    assert all(not src.requires_grad and src.grad_fn is None for src, _ in indices)
    optimizer.zero_grad()
    loss.backward()
    if step == 0:
        assert model.class_embed.weight.grad.abs().sum() > 0
        assert model.bbox_embed[2].weight.grad.abs().sum() > 0
    optimizer.step()
    losses.append(loss.item())
assert losses[-1] < 0.5 * losses[0], losses
print("matched loss:", round(losses[0], 3), "->", round(losses[-1], 3))
