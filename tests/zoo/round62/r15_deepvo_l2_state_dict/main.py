"""
expect: GL001 main.py:37
dynamic: confirm
source: https://github.com/krrish94/DeepVO/blob/874c4ac06e4ce479a3a1de9380bb06398f0ab1a0/Trainer.py

This DeepVO trainer (KITTI visual odometry) feeds frame pairs one at a time
through a CNN + LSTM, accumulates the rotation/translation loss over a
subsequence, adds an L2 penalty "to regularize only the LSTMs", backpropagates
and then detaches the LSTM state. The penalty is built from
`self.model.state_dict()`, and state_dict() hands back detached tensors: the
norms are just numbers added to the loss. Training runs and the printed loss
includes the penalty, but the LSTM weights feel no regularisation at all --
the -gamma flag does nothing. The asserts show that the LSTM gradients are
bit-identical with gamma=0 and gamma=5, and that after training the LSTM
weight norm equals the unregularised run; taking the same norms from
named_parameters() makes the penalty shrink the weights.
"""
import torch
import torch.nn.functional as F
from model import DeepVO

torch.manual_seed(0)
torch.set_num_threads(1)

SCF = 10.0  # rotation loss scaling, as in the original script


def make_sequence(gen, length=6):
    frames = torch.randn(length, 1, 6, 16, 16, generator=gen)
    rot = 0.1 * torch.randn(length, 1, 3, generator=gen)
    trans = torch.randn(length, 1, 3, generator=gen)
    return frames, rot, trans


def lstm_l2(model, from_state_dict):
    if from_state_dict:
        params = model.state_dict()
    else:
        params = dict(model.named_parameters())
    names = ["lstm1.weight_ih", "lstm1.weight_hh", "lstm2.weight_ih", "lstm2.weight_hh"]
    return sum(params[name].norm(2) for name in names)


def sequence_loss(model, frames, rot, trans, gamma, from_state_dict):
    loss = torch.zeros(1)
    for t in range(frames.size(0)):
        rot_pred, trans_pred = model(frames[t])
        loss = loss + SCF * F.mse_loss(rot_pred, rot[t], reduction="sum")
        loss = loss + F.mse_loss(trans_pred, trans[t], reduction="sum")
    if gamma > 0:
        loss = sum([gamma * lstm_l2(model, from_state_dict), loss])
    return loss


def lstm_grads(gamma, from_state_dict):
    torch.manual_seed(0)
    model = DeepVO()
    frames, rot, trans = make_sequence(torch.Generator().manual_seed(2))
    sequence_loss(model, frames, rot, trans, gamma, from_state_dict).sum().backward()
    return [model.lstm2.weight_hh.grad.clone(), model.lstm1.weight_ih.grad.clone()]


def train(gamma, from_state_dict, epochs=4):
    torch.manual_seed(0)
    model = DeepVO()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    gen = torch.Generator().manual_seed(2)
    for _ in range(epochs):
        frames, rot, trans = make_sequence(gen)
        model.reset_LSTM_hidden()
        opt.zero_grad()
        loss = sequence_loss(model, frames, rot, trans, gamma, from_state_dict)
        loss.sum().backward()
        opt.step()
        model.detach_LSTM_hidden()
    return model.lstm2.weight_hh.detach().norm().item()


def main():
    base = lstm_grads(gamma=0.0, from_state_dict=True)
    buggy = lstm_grads(gamma=5.0, from_state_dict=True)
    assert all(torch.equal(a, b) for a, b in zip(base, buggy))
    fixed = lstm_grads(gamma=5.0, from_state_dict=False)
    assert not any(torch.equal(a, b) for a, b in zip(base, fixed))

    n_plain = train(gamma=0.0, from_state_dict=True)
    n_buggy = train(gamma=5.0, from_state_dict=True)
    n_fixed = train(gamma=5.0, from_state_dict=False)
    assert n_buggy == n_plain
    assert n_fixed < n_plain
    print(f"LSTM2 |W_hh|: plain {n_plain:.4f}  state_dict reg {n_buggy:.4f}  "
          f"parameter reg {n_fixed:.4f}")


if __name__ == "__main__":
    main()
