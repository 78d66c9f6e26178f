"""expect: GL005 37
dynamic: confirm
source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6

Answer classifier of a bottom-up/top-down VQA model. The joint question-image
representation goes through Linear -> ReLU -> Dropout(inplace=True) -> Linear.
ReLU saves its own output for the backward pass, and the in-place dropout
overwrites exactly that tensor, so backward() (called in main.py) fails with
"modified by an inplace operation ... output 0 of ReluBackward0". The fix in
the thread is Dropout(..., inplace=False).
"""
import torch.nn as nn


class FCNet(nn.Module):
    """Stack of Linear + ReLU layers used for both modalities."""

    def __init__(self, dims):
        super().__init__()
        layers = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(d_in, d_out), nn.ReLU()]
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout=0.5):
        super().__init__()
        self.q_net = FCNet([in_dim[0], hid_dim[0]])
        self.v_net = FCNet([in_dim[1], hid_dim[0]])
        self.main = nn.Sequential(
            nn.Linear(hid_dim[0], hid_dim[1]),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            nn.Linear(hid_dim[1], out_dim),
        )

    def forward(self, q_emb, v_emb):
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        return self.main(joint_repr)
