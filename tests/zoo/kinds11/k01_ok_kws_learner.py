"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 1

A plain-Python KeywordLearner owns an Adam optimizer over a tiny keyword-spotting
network with a keyword head and a voice-activity head. Each learner method takes
a loss, calls backward (the first with retain_graph=True, which is harmless),
steps the learner's optimizer and returns loss.item(). Unlike the bug, main()
computes the second (voice-activity) loss with a fresh forward pass AFTER the
first update, so its graph saved the already-updated weights and no saved tensor
is edited before its backward. Every parameter trained by each loss receives a
gradient, and no in-place autograd error occurs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordLearner:
    def __init__(self, net, lr=1e-2):
        self.net = net
        self.optim = torch.optim.Adam(net.parameters(), lr=lr)

    def fit_keywords(self, loss):
        self.optim.zero_grad()
        loss.backward(retain_graph=True)
        self.optim.step()
        return loss.item()

    def fit_activity(self, loss):
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()


class KwsNet(nn.Module):
    def __init__(self, n_mels=20, hidden=24, n_words=6):
        super().__init__()
        self.frame = nn.Linear(n_mels, hidden)
        self.word_head = nn.Linear(hidden, n_words)
        self.vad_head = nn.Linear(hidden, 1)

    def forward(self, mels):
        h = torch.relu(self.frame(mels))  # (B, T, H)
        return self.word_head(h.mean(dim=1)), self.vad_head(h).squeeze(-1)


def main():
    torch.manual_seed(1)
    net = KwsNet()
    learner = KeywordLearner(net)
    mels = torch.randn(8, 30, 20)
    words = torch.randint(0, 6, (8,))
    speech_mask = (torch.rand(8, 30) > 0.5).float()

    word_logits, _ = net(mels)
    kw_loss = F.cross_entropy(word_logits, words)
    learner.fit_keywords(kw_loss)
    for name in ("frame.weight", "word_head.weight"):
        assert net.get_parameter(name).grad is not None, name
        assert net.get_parameter(name).grad.abs().sum() > 0, name

    _, vad_logits = net(mels)  # fresh forward after the first update
    vad_loss = F.binary_cross_entropy_with_logits(vad_logits, speech_mask)
    learner.fit_activity(vad_loss)
    for name in ("frame.weight", "vad_head.weight", "vad_head.bias"):
        assert net.get_parameter(name).grad is not None, name
        assert net.get_parameter(name).grad.abs().sum() > 0, name
    print("k01 ok: both updates ran, every trained parameter got a gradient")


if __name__ == "__main__":
    main()
