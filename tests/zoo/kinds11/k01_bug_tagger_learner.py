"""
expect: GL005 29
dynamic: error
source: kinds check 11, kind 1

A plain-Python TaggerLearner owns an SGD optimizer over a small part-of-speech
tagger that also predicts sentence length. main() runs ONE forward pass and builds
both the tag loss and the length loss from it. learn_tags() backpropagates the tag
loss with retain_graph=True and then steps the optimizer, which updates the
weights in place (bumping their version counters). The length loss's graph saved
the shared `mix` layer's weight during that same forward pass, so when
learn_length() calls backward autograd finds a saved tensor that was modified by
an in-place operation and raises. The mistake is the optimizer step inside
learn_tags() taken while another loss from the same forward is still pending.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TaggerLearner:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def learn_tags(self, loss):
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()
        return loss.item()

    def learn_length(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class TinyTagger(nn.Module):
    def __init__(self, vocab=50, dim=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.tag_head = nn.Linear(dim, n_tags)
        self.len_head = nn.Linear(dim, 1)

    def forward(self, tokens):
        h = torch.tanh(self.mix(self.emb(tokens)))
        return self.tag_head(h), self.len_head(h.mean(dim=1)).squeeze(-1)


def main():
    torch.manual_seed(0)
    model = TinyTagger()
    learner = TaggerLearner(model)
    tokens = torch.randint(0, 50, (4, 7))
    tags = torch.randint(0, 5, (4, 7))
    lengths = torch.full((4,), 7.0)

    tag_logits, len_pred = model(tokens)  # one forward feeds both losses
    tag_loss = F.cross_entropy(tag_logits.reshape(-1, 5), tags.reshape(-1))
    len_loss = F.mse_loss(len_pred, lengths)

    mix_before = model.mix.weight.detach().clone()
    learner.learn_tags(tag_loss)
    assert not torch.equal(mix_before, model.mix.weight.detach()), "step did not edit mix"
    try:
        learner.learn_length(len_loss)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("k01 bug: raised as expected:", str(err).splitlines()[0][:90])
    else:
        raise AssertionError("expected the in-place autograd error")


if __name__ == "__main__":
    main()
