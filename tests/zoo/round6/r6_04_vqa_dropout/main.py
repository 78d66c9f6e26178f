"""Driver of a two-file reproduction; the bug line is in classifier.py, line 37
(GL005: nn.Dropout(dropout, inplace=True) inside SimpleClassifier.__init__;
the expect line is in classifier.py's docstring).
This file builds question/image embeddings, computes the soft-score VQA loss
and runs one training step, which must fail in backward().
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from classifier import SimpleClassifier


class QuestionEmbedding(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, tokens):
        _, h = self.gru(self.emb(tokens))
        return h[-1]


def instance_bce(logits, soft_scores):
    return F.binary_cross_entropy_with_logits(logits, soft_scores) * soft_scores.size(1)


def main():
    torch.manual_seed(0)
    q_encoder = QuestionEmbedding()
    classifier = SimpleClassifier(in_dim=(16, 24), hid_dim=(32, 64), out_dim=10)
    params = list(q_encoder.parameters()) + list(classifier.parameters())
    optimizer = torch.optim.Adamax(params, lr=1e-3)
    classifier.train()

    tokens = torch.randint(0, 50, (4, 7))
    image_feats = torch.randn(4, 24)
    soft_scores = torch.rand(4, 10)

    optimizer.zero_grad()
    logits = classifier(q_encoder(tokens), image_feats)
    loss = instance_bce(logits, soft_scores)
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("OK: backward failed because Dropout(inplace=True) overwrote ReLU's saved output")
        return
    raise AssertionError("expected the in-place dropout to break backward")


if __name__ == "__main__":
    main()
