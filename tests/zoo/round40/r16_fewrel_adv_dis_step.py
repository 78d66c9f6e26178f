"""expect: GL005 48
dynamic: confirm
source: https://github.com/thunlp/FewRel/blob/master/fewshot_re_kit/framework.py

Adversarial domain adaptation for few-shot relation classification, as in the FewRel toolkit: a CNN sentence
encoder embeds source and target-domain sentences, a two-layer discriminator guesses the domain, the
discriminator is stepped on its loss, then the encoder is trained to fool it with a second loss computed
from the same dis_logits. optimizer_dis.step() rewrites the discriminator weights in place between the two
backward passes, but the linear layers saved those weights when dis_logits was computed, so the encoder's
backward raises "modified by an inplace operation". The asserts catch that error, then show the ordering
that keeps the graph valid (encoder backward before the discriminator step) gives the encoder a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CNNSentenceEncoder(nn.Module):
    def __init__(self, vocab=100, emb=16, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.conv = nn.Conv1d(emb, hidden, 3, padding=1)

    def forward(self, tokens):
        return F.relu(self.conv(self.embed(tokens).transpose(1, 2))).max(dim=2).values


class Discriminator(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.fc1 = nn.Linear(hidden, hidden)
        self.fc2 = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def adversarial_step(encoder, d, opt_enc, opt_dis, support, support_adv):
    features = torch.cat([encoder(support), encoder(support_adv)], 0)
    total = features.size(0)
    dis_labels = torch.cat([torch.zeros(total // 2), torch.ones(total // 2)]).long()
    dis_logits = d(features)
    loss_dis = F.cross_entropy(dis_logits, dis_labels)
    loss_dis.backward(retain_graph=True)
    opt_dis.step()
    opt_dis.zero_grad()
    opt_enc.zero_grad()
    loss_encoder = F.cross_entropy(dis_logits, 1 - dis_labels)
    loss_encoder.backward(retain_graph=True)
    opt_enc.step()
    opt_dis.zero_grad()
    opt_enc.zero_grad()
    return loss_dis.item()


def adversarial_step_reordered(encoder, d, opt_enc, opt_dis, support, support_adv):
    features = torch.cat([encoder(support), encoder(support_adv)], 0)
    total = features.size(0)
    dis_labels = torch.cat([torch.zeros(total // 2), torch.ones(total // 2)]).long()
    dis_logits_enc = d(features)
    loss_encoder = F.cross_entropy(dis_logits_enc, 1 - dis_labels)
    opt_enc.zero_grad()
    loss_encoder.backward()
    enc_grad = encoder.conv.weight.grad.abs().sum().item()
    opt_enc.step()
    loss_dis = F.cross_entropy(d(features.detach()), dis_labels)
    opt_dis.zero_grad()
    loss_dis.backward()
    opt_dis.step()
    return enc_grad


encoder, d = CNNSentenceEncoder(), Discriminator()
opt_enc = torch.optim.SGD(encoder.parameters(), lr=0.05)
opt_dis = torch.optim.SGD(d.parameters(), lr=0.05)
support = torch.randint(0, 100, (8, 12))
support_adv = torch.randint(0, 100, (8, 12))

try:
    adversarial_step(encoder, d, opt_enc, opt_dis, support, support_adv)
    message = None
except RuntimeError as err:
    message = str(err)
assert message is not None and "inplace operation" in message, message

before = encoder.conv.weight.detach().clone()
enc_grad = adversarial_step_reordered(encoder, d, opt_enc, opt_dis, support, support_adv)
assert enc_grad > 0 and not torch.equal(before, encoder.conv.weight)
print("reordered adversarial step: encoder grad mass %.4f" % enc_grad)
