"""expect: GL001 40
dynamic: confirm
source: https://github.com/RupertLuo/Valley/issues/13

Video-language model in the LLaVA/Valley style: a frozen vision tower, a
trainable multimodal projector that maps patch features into the LLM's
embedding space, and a language model trained with next-token loss. The
model's image-encoding method wraps the vision tower in torch.no_grad() to
keep it frozen, but the projector call is inside the same block, so the
projected image tokens spliced into the input embeddings carry no history and
the projector receives no gradient although it is meant to be trained.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VisionTower(nn.Module):
    def __init__(self, patch=4, dim=12):
        super().__init__()
        self.patchify = nn.Conv2d(3, dim, patch, stride=patch)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, frames):
        return self.patchify(frames).flatten(2).transpose(1, 2)   # (B, patches, dim)


class ValleyLM(nn.Module):
    def __init__(self, vocab=40, hidden=16, vision_dim=12):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.vision_tower = VisionTower(dim=vision_dim)
        self.mm_projector = nn.Linear(vision_dim, hidden)
        self.decoder = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab)

    def encode_images(self, images):
        features = []
        with torch.no_grad():
            for clip in images:                      # clip: (frames, 3, H, W)
                patches = self.vision_tower(clip)
                features.append(self.mm_projector(patches).mean(dim=0))   # temporal mean pooling
        return torch.stack(features)

    def forward(self, input_ids, images):
        text = self.embed_tokens(input_ids)
        image_tokens = self.encode_images(images)
        hidden, _ = self.decoder(torch.cat([image_tokens, text], dim=1))
        return self.lm_head(hidden[:, image_tokens.shape[1]:])


def lm_loss(model, input_ids, images):
    logits = model(input_ids[:, :-1], images)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), input_ids[:, 1:].reshape(-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ValleyLM()
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-3)
    input_ids = torch.randint(0, 40, (2, 9))
    images = torch.rand(2, 3, 3, 16, 16)
    optimizer.zero_grad()
    loss = lm_loss(model, input_ids, images)
    loss.backward()
    optimizer.step()
    assert model.lm_head.weight.grad is not None
    assert model.mm_projector.weight.grad is None, "projector should have been cut off"
    print("OK: language model trains, multimodal projector gets no gradient")
