"""Answer head of a bottom-up/top-down style VQA model.

The question vector and the attended image vector are projected to a joint
space, multiplied, and a small MLP turns the joint vector into answer logits.
"""
import torch.nn as nn


class FCNet(nn.Module):
    """Linear layer followed by ReLU (the repo stacks these for q and v)."""

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(in_dim, out_dim), nn.ReLU())

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout=0.5):
        super().__init__()
        self.q_net = FCNet(in_dim[0], hid_dim[0])
        self.v_net = FCNet(in_dim[1], hid_dim[0])
        self.main = nn.Sequential(
            nn.Linear(hid_dim[0], hid_dim[1]),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            nn.Linear(hid_dim[1], out_dim),
        )

    def forward(self, q_emb, v_emb):
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        return self.main(joint_repr)


class OutOfPlaceClassifier(SimpleClassifier):
    """Same head, but the dropout writes a new tensor instead of the ReLU output."""

    def __init__(self, in_dim, hid_dim, out_dim, dropout=0.5):
        super().__init__(in_dim, hid_dim, out_dim, dropout)
        self.main[2] = nn.Dropout(dropout)
