"""
expect: GL001 35
dynamic: confirm
source: https://github.com/TinyLLaVA/TinyLLaVA_Factory/issues/17

A tiny LLaVA-style model: a patch vision tower feeds a projector whose outputs are
prepended to text embeddings of a small language model. The training arguments offer
`tune_vision_tower`; when it is set the trainer unfreezes the tower and hands its
weights to the optimizer. But the tower's forward is decorated with @torch.no_grad(),
so the image features are built outside the autograd record and the language-model
loss can never reach the encoder: its .grad stays None and its weights never move,
while the projector and the LM train normally. The asserts show this, and show that
the same step with the encoder called outside no_grad does give it gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision_tower import PatchVisionTower

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyMultimodalLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.vision_tower = PatchVisionTower(hidden=dim)
        self.projector = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def encode_images(self, patches):
        return self.projector(self.vision_tower(patches))

    def forward(self, patches, input_ids):
        img_tokens = self.encode_images(patches)
        txt_tokens = self.embed(input_ids)
        h, _ = self.block(torch.cat([img_tokens, txt_tokens], dim=1))
        n_img = img_tokens.shape[1]
        return self.lm_head(h[:, n_img - 1 : -1])  # predict each text token


def build_optimizer(model, tune_vision_tower):
    groups = [
        {"params": list(model.projector.parameters()), "lr": 1e-2},
        {"params": list(model.embed.parameters()) + list(model.block.parameters())
                   + list(model.lm_head.parameters()), "lr": 1e-2},
    ]
    if tune_vision_tower:
        model.vision_tower.unfreeze()
        groups.append({"params": list(model.vision_tower.parameters()), "lr": 1e-2})
    return torch.optim.AdamW(groups)


def train_step(model, opt, patches, ids):
    logits = model(patches, ids)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


patches = torch.randn(4, 5, 12)          # 4 images, 1 cls + 4 patches each
ids = torch.randint(0, 20, (4, 6))

model = TinyMultimodalLM()
opt = build_optimizer(model, tune_vision_tower=True)
enc_before = [p.detach().clone() for p in model.vision_tower.parameters()]
proj_before = [p.detach().clone() for p in model.projector.parameters()]
for _ in range(3):
    train_step(model, opt, patches, ids)

assert all(p.requires_grad for p in model.vision_tower.parameters())
assert all(p.grad is None for p in model.vision_tower.parameters()), "tower got a gradient"
assert all(torch.equal(a, b) for a, b in zip(enc_before, model.vision_tower.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(proj_before, model.projector.parameters()))

# intended: the tower's encoder runs with grad enabled when it is being tuned
fixed = TinyMultimodalLM()
fixed.load_state_dict(model.state_dict())
fixed.encode_images = lambda p: fixed.projector(fixed.vision_tower.drop_cls(fixed.vision_tower.encoder(p)))
fixed_opt = build_optimizer(fixed, tune_vision_tower=True)
train_step(fixed, fixed_opt, patches, ids)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.vision_tower.parameters())
print("vision tower params with grad (buggy):",
      sum(p.grad is not None for p in model.vision_tower.parameters()),
      "| (fixed):", sum(p.grad is not None for p in fixed.vision_tower.parameters()))
