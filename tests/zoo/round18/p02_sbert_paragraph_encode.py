"""
expect: GL001 38
dynamic: confirm
source: https://github.com/huggingface/sentence-transformers/issues/255

The report: a user built a paragraph model on top of SentenceTransformer, calling
`self.sentence_encoder.encode(paragraph, convert_to_numpy=False)` for every paragraph,
stacking the sentence tensors, pooling them and feeding linear layers, and asked whether the
BERT weights get fine-tuned end to end. The maintainer answered that encode() never passes
gradients (it runs the model in eval mode under no_grad), so BERT is not fine-tuned - while
the layers after it train normally, so nothing fails. This program rebuilds the pattern with
a small sentence encoder whose `encode()` helper mirrors the library's, used inside a
paragraph classifier. The asserts show the encoder's parameters get no gradient and never
change while the head trains; calling the encoder's forward instead fine-tunes it.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM = 50, 16


class SentenceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.drop = nn.Dropout(0.1)

    def forward(self, token_ids):                     # (n_sent, n_tok)
        h = self.drop(self.tok(token_ids)).mean(dim=1)
        return torch.tanh(self.proj(h))               # sentence embeddings

    def encode(self, token_ids, convert_to_numpy=True):
        self.eval()
        with torch.no_grad():
            emb = self.forward(token_ids)
        return emb.numpy() if convert_to_numpy else emb


class ParagraphClassifier(nn.Module):
    def __init__(self, encoder, use_encode=True):
        super().__init__()
        self.sentence_encoder = encoder
        self.use_encode = use_encode
        self.mix = nn.Linear(DIM, DIM)
        self.head = nn.Linear(DIM, 3)

    def forward(self, paragraphs):
        src = []
        for para in paragraphs:
            if self.use_encode:
                t = self.sentence_encoder.encode(para, convert_to_numpy=False)
            else:
                t = self.sentence_encoder(para)
            src.append(t)
        src = torch.stack(src)                        # (B, n_sent, DIM)
        return self.head(F.relu(self.mix(src.mean(dim=1))))


def batch(n=8):
    paras = [torch.randint(0, VOCAB, (4, 6)) for _ in range(n)]
    labels = torch.tensor([int(p[:, 0].float().mean() // 17) for p in paras])
    return paras, labels


def train(model, steps=20):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        model.train()
        paras, labels = batch()
        loss = F.cross_entropy(model(paras), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    enc = SentenceEncoder()
    init = copy.deepcopy(enc.state_dict())
    model = ParagraphClassifier(enc, use_encode=True)
    head_before = model.head.weight.detach().clone()
    train(model)
    for n, p in enc.named_parameters():
        assert p.grad is None, n
        assert torch.equal(p.detach(), init[n]), n
    assert not torch.equal(model.head.weight.detach(), head_before)   # the head does learn

    enc2 = SentenceEncoder()
    enc2.load_state_dict(init)
    fixed = ParagraphClassifier(enc2, use_encode=False)
    train(fixed)
    assert all(p.grad is not None for p in enc2.parameters())
    assert not torch.equal(enc2.proj.weight.detach(), init["proj.weight"])
    print("OK: encode() starves the sentence encoder; forward() fine-tunes it")
