"""
expect: GL005 31
dynamic: error
source: https://github.com/huggingface/transformers/pull/24529

transformers PR #24529 ("Fixed OwlViTModel inplace operations", fixing issue
#24525) replaced `image_class_embeds /= torch.linalg.norm(image_class_embeds,
dim=-1, keepdim=True) + 1e-6` (and the same for the query embeddings) in the
OWL-ViT class head, because the in-place division made backward fail when the
model was fine-tuned. This program has an open-vocabulary detector whose nested
ClassHead normalises its projected box embeddings with `/=`. torch.linalg.norm
saved its input for backward, and the in-place division overwrites exactly
that tensor, so loss.backward() raises "modified by an inplace operation".
The program asserts that error and that the out-of-place version trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ClassHead(nn.Module):
    def __init__(self, dim=16, in_place=True):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))
        self.in_place = in_place

    def forward(self, box_feats, query_embeds):
        class_embeds = self.proj(box_feats)
        if self.in_place:
            class_embeds /= torch.linalg.norm(class_embeds, dim=-1, keepdim=True) + 1e-6
        else:
            class_embeds = class_embeds / (torch.linalg.norm(class_embeds, dim=-1, keepdim=True) + 1e-6)
        query_embeds = query_embeds / (torch.linalg.norm(query_embeds, dim=-1, keepdim=True) + 1e-6)
        return self.logit_scale.exp() * class_embeds @ query_embeds.T


class TinyOpenVocabDetector(nn.Module):
    def __init__(self, in_place=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 16), nn.GELU())
        self.class_head = ClassHead(in_place=in_place)

    def forward(self, patches, query_embeds):
        return self.class_head(self.backbone(patches), query_embeds)


def main():
    torch.manual_seed(0)
    patches = torch.randn(10, 12)
    queries = torch.randn(3, 16)
    labels = torch.randint(0, 3, (10,))

    model = TinyOpenVocabDetector(in_place=True)
    loss = F.cross_entropy(model(patches, queries), labels)
    try:
        loss.backward()
        raise AssertionError("expected the in-place modification error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)

    model = TinyOpenVocabDetector(in_place=False)
    F.cross_entropy(model(patches, queries), labels).backward()
    assert all(p.grad is not None for p in model.parameters())
    print("in-place normalisation of a saved tensor raises: confirmed")


if __name__ == "__main__":
    main()
