"""
expect: none
dynamic: dismiss
source: https://github.com/Peterande/D-FINE/issues/121

A DETR-style detector with two-stage query selection (as in DINO / D-FINE): an encoder
score head ranks the flattened backbone features, the top-k features become the content
part of the decoder queries, and the decoder cross-attends to the full memory. The
content is taken as `enc_topk_memory.detach()` on purpose (DINO, sec. 3.5) so the decoder
does not push gradients back through the query initialisation; the backbone still trains
through the memory used as keys/values and through the encoder's auxiliary score loss.
The program asserts every parameter (backbone, encoder head, query embedding, decoder,
heads) receives a non-zero gradient on each step and moves under the optimizer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES, NUM_QUERIES, DIM = 3, 5, 16


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, DIM, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(DIM, DIM, 3, padding=1))
        self.enc_score_head = nn.Linear(DIM, NUM_CLASSES)
        self.query_pos = nn.Parameter(torch.randn(NUM_QUERIES, DIM) * 0.1)
        self.cross_attn = nn.MultiheadAttention(DIM, 2, batch_first=True)
        self.class_head = nn.Linear(DIM, NUM_CLASSES)
        self.box_head = nn.Linear(DIM, 4)

    def forward(self, images):
        feat = self.backbone(images)
        memory = feat.flatten(2).transpose(1, 2)              # (B, HW, D)
        enc_logits = self.enc_score_head(memory)
        topk_idx = enc_logits.max(-1).values.topk(NUM_QUERIES, dim=1).indices
        enc_topk_memory = memory.gather(1, topk_idx[..., None].expand(-1, -1, DIM))
        content = enc_topk_memory.detach()
        hs, _ = self.cross_attn(content + self.query_pos, memory, memory)
        return enc_logits, self.class_head(hs), self.box_head(hs).sigmoid()


def detection_loss(enc_logits, cls_logits, boxes, enc_targets, cls_targets, box_targets):
    loss_enc = F.cross_entropy(enc_logits.flatten(0, 1), enc_targets.flatten())
    loss_cls = F.cross_entropy(cls_logits.flatten(0, 1), cls_targets.flatten())
    loss_box = F.l1_loss(boxes, box_targets)
    return loss_enc + loss_cls + 5 * loss_box


model = TinyDetector()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
images = torch.rand(2, 3, 16, 16)
enc_targets = torch.randint(0, NUM_CLASSES, (2, 64))
cls_targets = torch.randint(0, NUM_CLASSES, (2, NUM_QUERIES))
box_targets = torch.rand(2, NUM_QUERIES, 4)

before = {n: p.detach().clone() for n, p in model.named_parameters()}
for _ in range(3):
    loss = detection_loss(*model(images), enc_targets, cls_targets, box_targets)
    optimizer.zero_grad()
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    optimizer.step()
assert all(not torch.equal(before[n], p) for n, p in model.named_parameters())

print("OK")
