"""expect: GL003 96
dynamic: confirm
source: https://github.com/mazurowski-lab/finetune-SAM/issues/26

Adapter fine-tuning of a SAM-like segmentation model: every parameter whose
name lacks "Adapter" is frozen, and the only trainable weights are adapters
inside the image encoder. With if_update_encoder=False the helper runs the
image encoder under torch.no_grad(), so the loss has no graph and backward()
raises "element 0 of tensors does not require grad". The workaround from the
issue, loss.requires_grad = True, silences the error but only turns the loss
into a fresh leaf: the encoder adapters still receive no gradient and the
model never changes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Adapter(nn.Module):
    def __init__(self, dim, bottleneck=4):
        super().__init__()
        self.down = nn.Linear(dim, bottleneck)
        self.up = nn.Linear(bottleneck, dim)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))


class EncoderBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.Adapter = Adapter(dim)

    def forward(self, x):
        return self.Adapter(x + self.mlp(x))


class ImageEncoder(nn.Module):
    def __init__(self, dim=16, patch=4, depth=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, dim, patch, stride=patch)
        self.blocks = nn.ModuleList([EncoderBlock(dim) for _ in range(depth)])

    def forward(self, img):
        x = self.patch_embed(img)
        b, c, h, w = x.shape
        x = x.flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = blk(x)
        return x.transpose(1, 2).reshape(b, c, h, w)


class MaskDecoder(nn.Module):
    def __init__(self, dim=16, num_cls=2, patch=4):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), nn.ReLU(), nn.Conv2d(dim, num_cls, 1))
        self.patch = patch

    def forward(self, emb):
        return F.interpolate(self.head(emb), scale_factor=self.patch, mode="bilinear", align_corners=False)


class TinySam(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_encoder = ImageEncoder()
        self.mask_decoder = MaskDecoder()


def prepare_adapter_finetune(sam):
    for name, value in sam.named_parameters():
        if "Adapter" not in name:
            value.requires_grad = False
    return sam


def embed_images(sam, imgs, update_encoder):
    if update_encoder:
        return sam.image_encoder(imgs)
    with torch.no_grad():
        return sam.image_encoder(imgs)


def dice_loss(logits, masks):
    probs = logits.softmax(1)[:, 1]
    inter = (probs * masks).sum()
    return 1 - 2 * inter / (probs.sum() + masks.sum() + 1e-6)


def train_epoch(sam, optimizer, loader, update_encoder=False):
    for imgs, masks in loader:
        img_emb = embed_images(sam, imgs, update_encoder)
        pred = sam.mask_decoder(img_emb)
        loss = dice_loss(pred, masks) + F.cross_entropy(pred, masks.long())
        loss.requires_grad = True
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    sam = prepare_adapter_finetune(TinySam())
    adapters = [p for n, p in sam.named_parameters() if "Adapter" in n]
    assert adapters and all(p.requires_grad for p in adapters)
    before = [p.detach().clone() for p in adapters]
    optimizer = torch.optim.AdamW(sam.parameters(), lr=1e-2)
    loader = [(torch.rand(2, 1, 16, 16), (torch.rand(2, 16, 16) > 0.5).float()) for _ in range(3)]
    train_epoch(sam, optimizer, loader)
    assert all(p.grad is None for p in adapters)
    assert all(torch.equal(b, p) for b, p in zip(before, adapters))
    print("OK: training 'runs' but encoder adapters never get a gradient")
