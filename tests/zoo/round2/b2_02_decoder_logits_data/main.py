"""expect: GL001 decoder.py:20
dynamic: confirm
source: https://github.com/facebookresearch/inversecooking/issues/3

An image-to-recipe model has an image encoder, an ingredient decoder (in
decoder.py) and a title head; training sums an ingredient loss and a title
loss. The decoder returns its stacked per-step logits through `.data`, so the
ingredient loss is a constant for autograd and the decoder never receives a
gradient. The reporter proposed dropping `.data` and the maintainers fixed it
in a later commit.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from decoder import IngredientDecoder


class InverseCooking(nn.Module):
    def __init__(self, dim=8, vocab=10, steps=3):
        super().__init__()
        self.encoder = nn.Linear(12, dim)
        self.ingr_decoder = IngredientDecoder(dim, vocab, steps)
        self.title_head = nn.Linear(dim, vocab)

    def forward(self, img):
        feats = torch.relu(self.encoder(img))
        return self.ingr_decoder(feats), self.title_head(feats)


def training_loss(model, img, ingr_targets, title_targets):
    ingr_logits, title_logits = model(img)
    ingr_loss = F.cross_entropy(ingr_logits.flatten(0, 1), ingr_targets.flatten())
    title_loss = F.cross_entropy(title_logits, title_targets)
    return ingr_loss + title_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = InverseCooking()
    img = torch.randn(4, 12)
    ingr = torch.randint(0, 10, (4, 3))
    title = torch.randint(0, 10, (4,))
    training_loss(model, img, ingr, title).backward()
    assert model.ingr_decoder.out.weight.grad is None
    assert model.ingr_decoder.cell.weight_hh.grad is None
    assert model.title_head.weight.grad.abs().sum() > 0
    print("ok: ingredient decoder gets no gradient")
