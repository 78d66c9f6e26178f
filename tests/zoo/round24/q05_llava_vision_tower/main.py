"""
expect: GL001 clip_encoder.py:29
dynamic: confirm
source: https://github.com/haotian-liu/LLaVA/issues/1449

A LLaVA user set requires_grad=True on the vision tower to fine-tune the ViT, yet its grads
stayed None and the weights never changed: CLIPVisionTower.forward in clip_encoder.py is
decorated with @torch.no_grad(), so the image features enter the language model with no graph
behind them. The projector and LM still train, so nothing fails. This two-file version wires a
tiny ViT tower (clip_encoder.py) through an mm_projector into a small causal LM; the asserts
show the projector gets gradients while the unfrozen tower gets none and does not move, and
that the same loop trains the tower once the decorator is gone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from clip_encoder import CLIPVisionTower, TrainableCLIPVisionTower

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM = 50, 32


class TinyLlava(nn.Module):
    def __init__(self, tower):
        super().__init__()
        self.vision_tower = tower
        self.mm_projector = nn.Sequential(nn.Linear(tower.hidden_size, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.embed = nn.Embedding(VOCAB, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True)
        self.lm = nn.TransformerEncoder(layer, 1)
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, images, input_ids):
        image_tokens = self.mm_projector(self.vision_tower(images))
        text = self.embed(input_ids)
        h = torch.cat([image_tokens, text], dim=1)
        n = h.size(1)
        causal = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        h = self.lm(h, mask=causal)
        return self.lm_head(h[:, image_tokens.size(1):])


def finetune(model, steps=3):
    model.vision_tower.requires_grad_(True)  # "unfreeze the ViT"
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    tower_w0 = model.vision_tower.vision_tower.patch_embed.weight.detach().clone()
    for _ in range(steps):
        images = torch.randn(2, 3, 16, 16)
        ids = torch.randint(0, VOCAB, (2, 7))
        logits = model(images, ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    tower_grads = [p.grad for p in model.vision_tower.parameters()]
    proj_grads = [p.grad for p in model.mm_projector.parameters()]
    moved = not torch.equal(tower_w0, model.vision_tower.vision_tower.patch_embed.weight)
    return tower_grads, proj_grads, moved


buggy = TinyLlava(CLIPVisionTower())
state = {k: v.clone() for k, v in buggy.state_dict().items()}
tower_grads, proj_grads, moved = finetune(buggy)
assert all(g is not None for g in proj_grads)
assert all(g is None for g in tower_grads)
assert not moved

fixed = TinyLlava(TrainableCLIPVisionTower())
fixed.load_state_dict(state)
tower_grads, proj_grads, moved = finetune(fixed)
assert all(g is not None for g in tower_grads)
assert moved
print("q05 ok: @torch.no_grad() on the vision tower's forward keeps the ViT from training")
