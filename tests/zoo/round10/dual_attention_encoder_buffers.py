"""
expect: none
dynamic: dismiss
source: https://github.com/Seanny123/da-rnn/blob/8585806feee7726084bb2f733a3aaefada9c1f2f/modules.py

The DA-RNN encoder in Seanny123/da-rnn preallocates `input_weighted` and
`input_encoded` with torch.zeros and fills them step by step with
`input_weighted[:, t, :] = weighted_input` and `input_encoded[:, t, :] = hidden`
(issue #14 on that repo reports an in-place RuntimeError after a user changed
the code to modify an item with +=). These slice writes are in-place, but they go into fresh buffers
that no recorded operation has saved yet, and the buffers are only read after
the loop, so autograd records them as CopySlices and backpropagates correctly.
This program writes its own input-attention encoder the same way; the asserts
show backward runs, every parameter gets a gradient, and the gradients equal a
reference encoder that collects the steps with torch.stack instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InputAttentionEncoder(nn.Module):
    def __init__(self, n_series=5, hidden=8, steps=6, use_stack=False):
        super().__init__()
        self.n_series, self.hidden, self.steps, self.use_stack = n_series, hidden, steps, use_stack
        self.cell = nn.LSTMCell(n_series, hidden)
        self.attn = nn.Linear(2 * hidden + steps, 1)

    def forward(self, x):                      # x: (batch, steps, n_series)
        b = x.shape[0]
        h = x.new_zeros(b, self.hidden)
        c = x.new_zeros(b, self.hidden)
        weighted_buf = torch.zeros(b, self.steps, self.n_series)
        encoded_buf = torch.zeros(b, self.steps, self.hidden)
        weighted_list, encoded_list = [], []
        for t in range(self.steps):
            state = torch.cat([h, c], 1).unsqueeze(1).expand(b, self.n_series, 2 * self.hidden)
            scores = self.attn(torch.cat([state, x.transpose(1, 2)], 2)).squeeze(-1)
            weighted = F.softmax(scores, dim=1) * x[:, t, :]
            h, c = self.cell(weighted, (h, c))
            if self.use_stack:
                weighted_list.append(weighted)
                encoded_list.append(h)
            else:
                weighted_buf[:, t, :] = weighted
                encoded_buf[:, t, :] = h
        if self.use_stack:
            return torch.stack(weighted_list, 1), torch.stack(encoded_list, 1)
        return weighted_buf, encoded_buf


def grads(model, x, y, head):
    model.zero_grad(set_to_none=True)
    head.zero_grad(set_to_none=True)
    weighted, encoded = model(x)
    loss = F.mse_loss(head(encoded[:, -1]) + weighted.mean((1, 2)).unsqueeze(1), y)
    loss.backward()
    return [p.grad.clone() for p in list(model.parameters()) + list(head.parameters())]


def main():
    torch.manual_seed(0)
    x, y = torch.randn(4, 6, 5), torch.randn(4, 1)
    head = nn.Linear(8, 1)
    model = InputAttentionEncoder()
    reference = InputAttentionEncoder(use_stack=True)
    reference.load_state_dict(model.state_dict())

    got = grads(model, x, y, head)
    ref = grads(reference, x, y, head)
    assert all(g.abs().sum() > 0 for g in got)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(got, ref))
    print("step-by-step writes into fresh buffers backpropagate correctly")


if __name__ == "__main__":
    main()
