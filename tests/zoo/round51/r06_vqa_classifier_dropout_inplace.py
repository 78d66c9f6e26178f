"""
expect: GL005 50
dynamic: confirm
source: https://github.com/jokieleung/CL-VQA/issues/1

A bottom-up/top-down VQA model (question GRU, question-guided attention over object features, element-wise fusion)
answers with a two-layer classifier whose hidden layer is ReLU followed by nn.Dropout(inplace=True), as in the
CL-VQA classifier.py. ReLU's backward uses its own output, and the in-place dropout overwrites exactly that tensor
in training mode, so the first backward fails with "one of the variables needed for gradient computation has been
modified by an inplace operation ... output 0 of ReluBackward0", the error reported in the issue. The asserts
catch that RuntimeError and show that the same model with inplace=False trains (the soft-score BCE loss drops).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class QuestionEncoder(nn.Module):
    def __init__(self, vocab=40, emb=12, hidden=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)

    def forward(self, q):
        _, h = self.rnn(self.emb(q))
        return h[-1]


class Attention(nn.Module):
    def __init__(self, v_dim, q_dim, hidden=16):
        super().__init__()
        self.v_proj = nn.Linear(v_dim, hidden)
        self.q_proj = nn.Linear(q_dim, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, v, q):
        joint = torch.relu(self.v_proj(v)) * torch.relu(self.q_proj(q)).unsqueeze(1)
        return torch.softmax(self.linear(joint), dim=1)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(in_dim, hid_dim),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            nn.Linear(hid_dim, out_dim),
        )

    def forward(self, x):
        return self.main(x)


class VQAModel(nn.Module):
    def __init__(self, v_dim=20, hidden=16, n_answers=10):
        super().__init__()
        self.q_emb = QuestionEncoder(hidden=hidden)
        self.v_att = Attention(v_dim, hidden)
        self.q_net = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
        self.v_net = nn.Sequential(nn.Linear(v_dim, hidden), nn.ReLU())
        self.classifier = SimpleClassifier(hidden, 2 * hidden, n_answers, 0.5)

    def forward(self, v, q):
        q_emb = self.q_emb(q)
        att = self.v_att(v, q_emb)
        v_emb = (att * v).sum(1)
        return self.classifier(self.q_net(q_emb) * self.v_net(v_emb))


v = torch.randn(32, 6, 20)
q = torch.randint(0, 40, (32, 7))
soft_scores = torch.rand(32, 10) * (torch.rand(32, 10) > 0.7)

model = VQAModel().train()
opt = torch.optim.Adamax(model.parameters(), lr=2e-3)
try:
    loss = F.binary_cross_entropy_with_logits(model(v, q), soft_scores)
    opt.zero_grad()
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised
print("inplace dropout after ReLU: backward raised the in-place RuntimeError")

model2 = VQAModel().train()
model2.load_state_dict(model.state_dict())
model2.classifier.main[2] = nn.Dropout(0.5)
opt2 = torch.optim.Adamax(model2.parameters(), lr=2e-2)
losses = []
for _ in range(60):
    loss = F.binary_cross_entropy_with_logits(model2(v, q), soft_scores)
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("out-of-place dropout: loss", round(losses[0], 4), "->", round(losses[-1], 4))
print("ok")
