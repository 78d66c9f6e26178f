import torch
from torch import nn
from torch.nn.utils.parametrizations import weight_norm


class FCNet(nn.Module):
    def __init__(self, dims):
        super().__init__()
        layers = []
        for in_dim, out_dim in zip(dims[:-1], dims[1:]):
            layers.append(weight_norm(nn.Linear(in_dim, out_dim)))
            layers.append(nn.ReLU())
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout):
        super().__init__()
        layers = [
            weight_norm(nn.Linear(in_dim, hid_dim)),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            weight_norm(nn.Linear(hid_dim, out_dim)),
        ]
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class TopDownVQA(nn.Module):
    """Question GRU, question-guided attention over region features, joint classifier."""

    def __init__(self, ntoken, v_dim, num_hid, num_ans):
        super().__init__()
        self.w_emb = nn.Embedding(ntoken, 32)
        self.q_emb = nn.GRU(32, num_hid, batch_first=True)
        self.att_proj = FCNet([v_dim + num_hid, num_hid])
        self.att_linear = nn.Linear(num_hid, 1)
        self.q_net = FCNet([num_hid, num_hid])
        self.v_net = FCNet([v_dim, num_hid])
        self.classifier = SimpleClassifier(num_hid, 2 * num_hid, num_ans, 0.5)

    def forward(self, v, q):
        _, h = self.q_emb(self.w_emb(q))
        q_emb = h[-1]
        k = v.size(1)
        joint = torch.cat([v, q_emb.unsqueeze(1).expand(-1, k, -1)], dim=2)
        att = torch.softmax(self.att_linear(self.att_proj(joint)), dim=1)
        v_emb = (att * v).sum(1)
        return self.classifier(self.q_net(q_emb) * self.v_net(v_emb))
