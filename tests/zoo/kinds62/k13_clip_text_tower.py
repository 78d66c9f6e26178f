"""
expect: GL001 49
dynamic: confirm
source: none, invented

A miniature CLIP: an image tower (MLP over image features) and a text tower (mean-pooled token embeddings
followed by a linear projection into the joint space), trained with the symmetric InfoNCE loss. The helper
method encode_text returns `self.text_proj(pooled).detach()`, and its result is the only way the text tower
enters the loss, so the text projection (and the token embedding behind it) never get a gradient even though
they are in the optimizer; only the image tower learns to chase fixed random text embeddings. The asserts show
text_proj.weight.grad and token_emb.weight.grad are None after backward and the text tower is bit-identical
after training; TrainableTextCLIP, whose encode_text keeps the graph, trains both towers and reaches a lower
contrastive loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CONCEPTS, IMG_DIM, VOCAB, SEQ, EMBED = 16, 48, 100, 6, 32
CONCEPT_IMG = torch.randn(N_CONCEPTS, IMG_DIM)
CONCEPT_WORDS = torch.stack([torch.randperm(VOCAB)[:SEQ] for _ in range(N_CONCEPTS)])


def caption_batch(n=64):
    concept = torch.randint(0, N_CONCEPTS, (n,))
    images = CONCEPT_IMG[concept] + 0.5 * torch.randn(n, IMG_DIM)
    tokens = CONCEPT_WORDS[concept].clone()
    noise = torch.rand(n, SEQ) < 0.3
    tokens[noise] = torch.randint(0, VOCAB, (int(noise.sum()),))
    return images, tokens


class TinyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Linear(IMG_DIM, 64), nn.GELU(), nn.Linear(64, EMBED))
        self.token_emb = nn.Embedding(VOCAB, 64)
        self.text_proj = nn.Linear(64, EMBED)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def encode_image(self, images):
        return F.normalize(self.image_tower(images), dim=-1)

    def encode_text(self, tokens):
        pooled = self.token_emb(tokens).mean(dim=1)
        return self.text_proj(pooled).detach()

    def forward(self, images, tokens):
        img = self.encode_image(images)
        txt = F.normalize(self.encode_text(tokens), dim=-1)
        return self.logit_scale.exp() * img @ txt.t()


class TrainableTextCLIP(TinyCLIP):
    def encode_text(self, tokens):
        pooled = self.token_emb(tokens).mean(dim=1)
        return self.text_proj(pooled)


def clip_loss(logits):
    target = torch.arange(logits.size(0))
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target))


def train(model_cls, steps=300):
    torch.manual_seed(0)
    model = model_cls()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    text_start = [p.detach().clone() for p in (model.text_proj.weight, model.token_emb.weight)]
    grads, losses = None, []
    for step in range(steps):
        loss = clip_loss(model(*caption_batch()))
        losses.append(loss.item())
        opt.zero_grad()
        loss.backward()
        if grads is None:
            grads = (model.text_proj.weight.grad, model.token_emb.weight.grad, model.image_tower[0].weight.grad)
        opt.step()
    changed = [not torch.equal(p, p0) for p, p0 in zip((model.text_proj.weight, model.token_emb.weight), text_start)]
    return sum(losses[-30:]) / 30, grads, changed


def main():
    tiny_loss, (g_proj, g_emb, g_img), changed = train(TinyCLIP)
    assert g_proj is None and g_emb is None and g_img is not None
    assert not any(changed)

    trainable_loss, (g_proj, g_emb, g_img), changed = train(TrainableTextCLIP)
    assert g_proj is not None and g_emb is not None and all(changed)
    assert trainable_loss < tiny_loss, (tiny_loss, trainable_loss)
    print(f"k13: final contrastive loss {tiny_loss:.3f} (text tower untouched) vs {trainable_loss:.3f}")


if __name__ == "__main__":
    main()
