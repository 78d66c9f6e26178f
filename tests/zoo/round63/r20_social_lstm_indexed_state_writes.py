"""
expect: none
dynamic: dismiss
source: https://github.com/xywang0001/Social_LSTM/blob/2721a3d7139872f67710585b6c0685bf595c7a02/model.py

This Social LSTM (derived from Anirudh Vemula's social-lstm-pytorch) keeps one
hidden/cell state row per pedestrian in plain buffers created with torch.zeros in
train.py, and in forward() it writes into them in place every frame:
hidden_states[list_of_nodes.data] = h_nodes, cell_states[...] = c_nodes,
outputs[framenum*numNodes + list_of_nodes.data] = ..., plus per-pedestrian writes
social_tensor[node] = torch.mm(grid[node].t(), hidden_states_current) and a final
loop that copies outputs into outputs_return. Index assignment into a tensor that
is part of the graph looks like the "modified by an inplace operation" trap, but
here every reader goes through torch.index_select (which copies and saves only the
indices) or reads a buffer after its last write, so nothing that autograd saved is
overwritten and the gradients are exact. The social grid masks are built in NumPy
from positions (constants, as intended). The asserts show: backward runs, every
parameter including the social-tensor embedding gets a non-zero gradient, the
gradients equal those of an out-of-place rewrite with the same weights, and the
bivariate-Gaussian NLL goes down during training.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Args:
    rnn_size, grid_size, embedding_size = 16, 2, 8
    input_size, output_size, seq_length = 2, 5, 6
    neighborhood_size = 1.0


class SocialLSTM(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.seq_length = args.seq_length
        self.rnn_size, self.grid_size = args.rnn_size, args.grid_size
        self.output_size = args.output_size
        self.cell = nn.LSTMCell(2 * args.embedding_size, args.rnn_size)
        self.input_embedding_layer = nn.Linear(args.input_size, args.embedding_size)
        self.tensor_embedding_layer = nn.Linear(args.grid_size ** 2 * args.rnn_size, args.embedding_size)
        self.output_layer = nn.Linear(args.rnn_size, args.output_size)
        self.relu = nn.ReLU()

    def getSocialTensor(self, grid, hidden_states):
        numNodes = grid.size()[0]
        social_tensor = torch.zeros(numNodes, self.grid_size * self.grid_size, self.rnn_size)
        for node in range(numNodes):
            social_tensor[node] = torch.mm(torch.t(grid[node]), hidden_states)
        return social_tensor.view(numNodes, self.grid_size * self.grid_size * self.rnn_size)

    def forward(self, nodes, grids, nodesPresent, hidden_states, cell_states):
        numNodes = nodes.size()[1]
        outputs = torch.zeros(self.seq_length * numNodes, self.output_size)
        for framenum in range(self.seq_length):
            nodeIDs = nodesPresent[framenum]
            if len(nodeIDs) == 0:
                continue
            list_of_nodes = torch.LongTensor(nodeIDs)
            nodes_current = torch.index_select(nodes[framenum], 0, list_of_nodes)
            grid_current = grids[framenum]
            hidden_states_current = torch.index_select(hidden_states, 0, list_of_nodes)
            cell_states_current = torch.index_select(cell_states, 0, list_of_nodes)
            social_tensor = self.getSocialTensor(grid_current, hidden_states_current)
            input_embedded = self.relu(self.input_embedding_layer(nodes_current))
            tensor_embedded = self.relu(self.tensor_embedding_layer(social_tensor))
            concat_embedded = torch.cat((input_embedded, tensor_embedded), 1)
            h_nodes, c_nodes = self.cell(concat_embedded, (hidden_states_current, cell_states_current))
            outputs[framenum * numNodes + list_of_nodes.data] = self.output_layer(h_nodes)
            hidden_states[list_of_nodes.data] = h_nodes
            cell_states[list_of_nodes.data] = c_nodes
        outputs_return = torch.zeros(self.seq_length, numNodes, self.output_size)
        for framenum in range(self.seq_length):
            for node in range(numNodes):
                outputs_return[framenum, node, :] = outputs[framenum * numNodes + node, :]
        return outputs_return, hidden_states, cell_states


def forward_out_of_place(net, nodes, grids, nodesPresent):
    """Same computation without any in-place write (reference for the gradients)."""
    numNodes = nodes.size(1)
    h = [torch.zeros(net.rnn_size) for _ in range(numNodes)]
    c = [torch.zeros(net.rnn_size) for _ in range(numNodes)]
    outs = [[torch.zeros(net.output_size) for _ in range(numNodes)] for _ in range(net.seq_length)]
    for f in range(net.seq_length):
        ids = nodesPresent[f]
        if not ids:
            continue
        hs, cs = torch.stack([h[i] for i in ids]), torch.stack([c[i] for i in ids])
        social = torch.stack([torch.mm(grids[f][k].t(), hs) for k in range(len(ids))]).reshape(len(ids), -1)
        emb = torch.cat((net.relu(net.input_embedding_layer(nodes[f][ids])),
                         net.relu(net.tensor_embedding_layer(social))), 1)
        hn, cn = net.cell(emb, (hs, cs))
        o = net.output_layer(hn)
        for k, i in enumerate(ids):
            h[i], c[i], outs[f][i] = hn[k], cn[k], o[k]
    return torch.stack([torch.stack(row) for row in outs])


def get_grid_mask(frame, present, neighborhood, grid_size):
    """NumPy social grid: mask[i, j, cell] = 1 if ped j is in cell of ped i's grid."""
    n = len(present)
    mask = np.zeros((n, n, grid_size ** 2), dtype=np.float32)
    for a, i in enumerate(present):
        for b, j in enumerate(present):
            if i == j:
                continue
            dx, dy = frame[j] - frame[i]
            if abs(dx) >= neighborhood / 2 or abs(dy) >= neighborhood / 2:
                continue
            cx = int(np.floor((dx + neighborhood / 2) / neighborhood * grid_size))
            cy = int(np.floor((dy + neighborhood / 2) / neighborhood * grid_size))
            mask[a, b, cx + cy * grid_size] = 1.0
    return torch.from_numpy(mask)


def gaussian_2d_nll(outputs, targets, nodesPresent):
    mux, muy, sx, sy, corr = outputs.unbind(-1)
    sx, sy, corr = torch.exp(sx), torch.exp(sy), torch.tanh(corr)
    normx, normy = targets[..., 0] - mux, targets[..., 1] - muy
    z = (normx / sx) ** 2 + (normy / sy) ** 2 - 2 * corr * normx * normy / (sx * sy)
    neg_rho = 1 - corr ** 2
    nll = z / (2 * neg_rho) + torch.log(2 * np.pi * sx * sy * torch.sqrt(neg_rho))
    mask = torch.zeros_like(nll)
    for f, ids in enumerate(nodesPresent):
        mask[f, ids] = 1.0
    return (nll * mask).sum() / mask.sum()


args = Args()
num_peds = 4
start = torch.rand(num_peds, 2) * 0.6
vel = (torch.rand(num_peds, 2) - 0.5) * 0.1
traj = torch.stack([start + k * vel for k in range(args.seq_length + 1)])   # [T+1, P, 2]
nodesPresent = [[0, 1, 2, 3] if k % 3 else [0, 1, 3] for k in range(args.seq_length + 1)]
grids = [get_grid_mask(traj[k].numpy(), nodesPresent[k], args.neighborhood_size, args.grid_size)
         for k in range(args.seq_length + 1)]

net = SocialLSTM(args)

hidden_states = torch.zeros(num_peds, args.rnn_size)
cell_states = torch.zeros(num_peds, args.rnn_size)
outputs, _, _ = net(traj[:-1], grids[:-1], nodesPresent[:-1], hidden_states, cell_states)
loss = gaussian_2d_nll(outputs, traj[1:], nodesPresent[1:])
net.zero_grad()
loss.backward()
grads = {n: p.grad.clone() for n, p in net.named_parameters()}
assert all(g.abs().sum() > 0 for g in grads.values())

ref_out = forward_out_of_place(net, traj[:-1], grids[:-1], nodesPresent[:-1])
assert torch.allclose(ref_out, outputs, atol=1e-6)
ref_loss = gaussian_2d_nll(ref_out, traj[1:], nodesPresent[1:])
net.zero_grad()
ref_loss.backward()
for n, p in net.named_parameters():
    assert torch.allclose(p.grad, grads[n], atol=1e-6), n

optimizer = torch.optim.RMSprop(net.parameters(), lr=3e-3)
history = []
for step in range(60):
    hidden_states = torch.zeros(num_peds, args.rnn_size)
    cell_states = torch.zeros(num_peds, args.rnn_size)
    net.zero_grad()
    optimizer.zero_grad()
    outputs, _, _ = net(traj[:-1], grids[:-1], nodesPresent[:-1], hidden_states, cell_states)
    loss = gaussian_2d_nll(outputs, traj[1:], nodesPresent[1:])
    history.append(loss.item())
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    optimizer.step()
assert history[-1] < history[0] - 1.0, (history[0], history[-1])

print("r20 ok: in-place indexed state writes give exact gradients; NLL %.2f -> %.2f"
      % (history[0], history[-1]))
