"""expect: GL001 54
dynamic: confirm
source: https://github.com/edreisMD/ConVIRT-pytorch/issues/7

ConVIRT learns chest X-ray representations contrastively from paired
radiology reports: an image encoder + projection MLP and a BERT text encoder
(first layers frozen) + projection MLP. In this implementation the text
side's mean pooling *and its projection MLP* run inside `with torch.no_grad()`
(issue: "Text encoder in 'no_grad' block?"; another user reports the loss
dropping quickly once the block is removed). Everything on the text side is
in the optimizer, yet neither the unfrozen text layers nor the text projection
head ever receive a gradient; only the image tower learns. Fix: drop the
no_grad block (freeze layers with requires_grad_(False) instead).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.block = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64,
                                                batch_first=True, dropout=0.0)

    def forward(self, ids):
        return self.block(self.tok(ids))


class ReportImagePairModel(nn.Module):
    def __init__(self, dim=32, out_dim=16):
        super().__init__()
        self.text_backbone = TinyTextEncoder(dim=dim)
        self.text_backbone.tok.requires_grad_(False)        # "freeze_layers"
        self.txt_l1 = nn.Linear(dim, dim)
        self.txt_l2 = nn.Linear(dim, out_dim)
        self.img_features = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2), nn.ReLU(),
                                          nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.img_l1 = nn.Linear(8, 8)
        self.img_l2 = nn.Linear(8, out_dim)

    @staticmethod
    def mean_pooling(token_states, attention_mask):
        m = attention_mask.unsqueeze(-1).float()
        return (token_states * m).sum(1) / m.sum(1).clamp(min=1e-9)

    def image_encoder(self, xray):
        h = self.img_features(xray)
        return self.img_l2(F.relu(self.img_l1(h)))

    def text_encoder(self, ids, attention_mask):
        token_states = self.text_backbone(ids)
        with torch.no_grad():
            sentence = self.mean_pooling(token_states, attention_mask)
            x = F.relu(self.txt_l1(sentence))
            out_emb = self.txt_l2(x)
        return out_emb

    def forward(self, xray, ids, attention_mask):
        return self.image_encoder(xray), self.text_encoder(ids, attention_mask)


def nt_xent(zi, zt, temperature=0.1):
    zi, zt = F.normalize(zi, dim=1), F.normalize(zt, dim=1)
    logits = zi @ zt.t() / temperature
    labels = torch.arange(zi.shape[0])
    return 0.75 * F.cross_entropy(logits, labels) + 0.25 * F.cross_entropy(logits.t(), labels)


def train_step(model, optimizer, batch):
    xray, ids, mask = batch
    optimizer.zero_grad()
    z_img, z_txt = model(xray, ids, mask)
    loss = nt_xent(z_img, z_txt)
    loss.backward()
    optimizer.step()
    return loss.item()


torch.manual_seed(0)
model = ReportImagePairModel()
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
batch = (torch.randn(6, 1, 28, 28), torch.randint(0, 100, (6, 12)), torch.ones(6, 12, dtype=torch.long))
train_step(model, optimizer, batch)

# image side learns ...
assert model.img_l2.weight.grad is not None and model.img_l2.weight.grad.abs().sum() > 0
assert model.img_features[0].weight.grad is not None
# ... the text projection head and the unfrozen text layers (all in the optimizer) never do
for name, p in model.named_parameters():
    if p.requires_grad and (name.startswith("txt_") or name.startswith("text_backbone")):
        assert p.grad is None, name
print("OK")
