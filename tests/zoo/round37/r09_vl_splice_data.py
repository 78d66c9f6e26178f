"""
expect: GL001 57
dynamic: confirm
source: https://github.com/QwenLM/Qwen-VL/issues/124

In a Qwen-VL issue a user training only the visual tower found it got no gradient:
to dodge an in-place error they had written the ViT image features into the text
hidden states through .data, which copies raw values and leaves no graph edge back
to the vision transformer. Here a tiny ViT encodes image patches whose features are
spliced into placeholder token positions of a small language model the same way.
The asserts show that after backward every ViT parameter has no gradient while the
text embedding does, and that the clone-then-assign fix trains the ViT.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

D = 16


class TinyViT(nn.Module):
    def __init__(self, patch_dim=12, n_tokens=4):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, D)
        self.pos = nn.Parameter(torch.zeros(1, 16, D))
        self.block = nn.TransformerEncoderLayer(D, 2, 32, dropout=0.0, batch_first=True)
        self.n_tokens = n_tokens

    def forward(self, patches):
        x = self.patch_embed(patches) + self.pos[:, : patches.shape[1]]
        x = self.block(x)
        return x[:, : self.n_tokens]


class TinyVL(nn.Module):
    def __init__(self, vocab=50, use_clone=False):
        super().__init__()
        self.visual = TinyViT()
        self.wte = nn.Embedding(vocab, D)
        self.drop = nn.Dropout(0.1)
        self.mix = nn.GRU(D, D, batch_first=True)
        self.lm_head = nn.Linear(D, vocab)
        self.use_clone = use_clone

    def forward(self, ids, patches, img_pos):
        images = self.visual(patches)
        hidden_states = self.drop(self.wte(ids))
        if self.use_clone:
            hidden_states = hidden_states.clone()
        for idx, (i, a, b) in enumerate(img_pos):
            if self.use_clone:
                hidden_states[i, a + 1 : b] = images[idx]
            else:
                hidden_states.data[i][a + 1 : b] = images.data[idx]
        out, _ = self.mix(hidden_states)
        return self.lm_head(out)


def step(model, ids, patches, img_pos, targets):
    logits = model(ids, patches, img_pos)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


B, T = 2, 12
ids = torch.randint(0, 50, (B, T))
targets = torch.randint(0, 50, (B, T))
patches = torch.randn(B, 9, 12)
img_pos = [(0, 1, 6), (1, 3, 8)]  # <img> at a, </img> at b, 4 image tokens between

model = TinyVL()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
before = model.visual.patch_embed.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    step(model, ids, patches, img_pos, targets).backward()
    opt.step()

assert all(p.grad is None for p in model.visual.parameters()), "ViT gets no gradient"
assert model.wte.weight.grad is not None and model.wte.weight.grad.abs().sum() > 0
assert torch.equal(before, model.visual.patch_embed.weight)

fixed = TinyVL(use_clone=True)
fixed.load_state_dict(model.state_dict())
step(fixed, ids, patches, img_pos, targets).backward()
assert fixed.visual.patch_embed.weight.grad.abs().sum() > 0
print("ok: .data splice cuts the vision tower; clone + assign trains it")
