"""
expect: GL001 extractor.py:23
dynamic: confirm
source: https://github.com/lucidrains/vit-pytorch/blob/6460119f655b1b21c0b889e1df9fd998501d7ba0/vit_pytorch/extractor.py

vit-pytorch's Extractor wraps a vision transformer and returns the token embeddings of its transformer
block, captured by a forward hook; until a later commit the hook stored t.clone().detach(). Packages that
train a ViT through this wrapper (CLIP/CoCa-style image-text models) take those embeddings as the image
features of a contrastive loss. Here a tiny ViT and a text encoder are trained with such a loss and one
optimizer over both. Because the hook cuts the embeddings from the graph, the ViT's parameters never get a
gradient and never move, while the text side trains. The asserts show this, and a hook that keeps the
output attached (the later fix) lets the image encoder learn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from extractor import Extractor


class TinyViT(nn.Module):
    def __init__(self, patch=4, dim=32, img=16):
        super().__init__()
        self.patch = patch
        self.to_tokens = nn.Linear(3 * patch * patch, dim)
        self.pos = nn.Parameter(torch.randn(1, (img // patch) ** 2, dim) * 0.02)
        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0),
            num_layers=1,
        )
        self.head = nn.Linear(dim, 10)

    def forward(self, img):
        b, c, h, w = img.shape
        p = self.patch
        patches = img.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p)
        tokens = self.transformer(self.to_tokens(patches) + self.pos)
        return self.head(tokens.mean(dim=1))


class TextEncoder(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)

    def forward(self, tokens):
        return self.emb(tokens)


class AttachedExtractor(Extractor):
    def _hook(self, _, inputs, output):
        self.latents = output


def contrastive_step(image_encoder, text_encoder, opt, images, texts):
    latents = image_encoder(images, return_embeddings_only=True)
    img_emb = F.normalize(latents.mean(dim=1), dim=-1)
    txt_emb = F.normalize(text_encoder(texts), dim=-1)
    logits = img_emb @ txt_emb.t() / 0.07
    labels = torch.arange(images.shape[0])
    loss = 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def run(extractor_cls):
    torch.manual_seed(0)
    vit, text = TinyViT(), TextEncoder()
    image_encoder = extractor_cls(vit)
    opt = torch.optim.Adam(list(vit.parameters()) + list(text.parameters()), lr=1e-3)
    g = torch.Generator().manual_seed(5)
    images = torch.randn(8, 3, 16, 16, generator=g)
    texts = torch.randint(0, 50, (8, 6), generator=g)
    vit_before = vit.to_tokens.weight.detach().clone()
    txt_before = text.emb.weight.detach().clone()
    for _ in range(3):
        contrastive_step(image_encoder, text, opt, images, texts)
    return vit, vit_before, text, txt_before


torch.set_num_threads(1)
vit, vit_before, text, txt_before = run(Extractor)
assert vit.to_tokens.weight.grad is None, "image encoder received a gradient through the hook"
assert torch.equal(vit.to_tokens.weight, vit_before), "image encoder moved"
assert not torch.equal(text.emb.weight, txt_before), "text encoder should still train"

vit2, vit2_before, _, _ = run(AttachedExtractor)
assert vit2.to_tokens.weight.grad is not None and vit2.to_tokens.weight.grad.abs().sum() > 0
assert not torch.equal(vit2.to_tokens.weight, vit2_before)
print("detaching hook: ViT grad is None; attached hook: ViT grad norm %.4f"
      % vit2.to_tokens.weight.grad.norm().item())
