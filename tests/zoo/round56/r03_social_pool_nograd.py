"""
expect: GL001 55
dynamic: confirm
source: https://github.com/yongcongwang/social-lstm/blob/d6b418864e4f325dd6bdcf99cbefa72f6aa0b788/model.py

A Social-LSTM for pedestrian trajectory prediction.  At every frame each
pedestrian's LSTM gets, besides its own position embedding, a "social tensor"
H: the hidden states of the neighbours that fall in each cell of a small grid
around it, summed per cell.  The original wraps the whole social_pooling method
in `with torch.no_grad():`, so H is built from the neighbours' hidden states
without any record.  The forward values are right (a pedestrian's prediction
does change when a neighbour walks elsewhere), but no gradient ever flows from
one pedestrian's loss into the neighbours' hidden states, i.e. the LSTM is never
trained on how the others' states should shape its prediction.  The asserts
show that the neighbour's positions change pedestrian A's output, yet
d loss_A / d X_B is exactly zero; with only the integer grid bookkeeping kept
under no_grad the gradient reaches B and the recurrent weights receive the
missing part of their gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SocialLSTM(nn.Module):
    def __init__(self, hidden=16, embed=16, social=8, grid=3, cell=0.5, pool_grad=False):
        super().__init__()
        self.hidden, self.grid, self.cell = hidden, grid, cell
        self.pool_grad = pool_grad
        self.inp = nn.Linear(2, embed)
        self.soc = nn.Linear(grid * grid * hidden, social)
        self.cell_lstm = nn.LSTMCell(embed + social, hidden)
        self.out = nn.Linear(hidden, 2)

    def occupancy(self, coords, mask):
        # occ[i, k, j] = 1 if pedestrian j sits in cell k of i's neighbourhood grid
        n, g = coords.shape[0], self.grid
        rel = coords[None, :, :] - coords[:, None, :]  # (i, j, 2)
        idx = torch.floor(rel / self.cell + g / 2).long()
        inside = ((idx >= 0) & (idx < g)).all(-1) & mask[None, :].bool() & ~torch.eye(n, dtype=torch.bool)
        k = idx[..., 0].clamp(0, g - 1) * g + idx[..., 1].clamp(0, g - 1)
        ii = torch.arange(n)[:, None].expand(n, n)
        jj = torch.arange(n)[None, :].expand(n, n)
        occ = torch.zeros(n, g * g, n)
        occ[ii, k, jj] = inside.float()
        return occ

    def social_pooling(self, h_tm1, coords, mask):
        n = coords.shape[0]
        if not self.pool_grad:
            with torch.no_grad():
                occ = self.occupancy(coords, mask)
                H = torch.einsum("ikj,jd->ikd", occ, h_tm1).reshape(n, -1)
            return H
        with torch.no_grad():
            occ = self.occupancy(coords, mask)
        return torch.einsum("ikj,jd->ikd", occ, h_tm1).reshape(n, -1)

    def forward(self, X, masks, t_obs):
        T, n, _ = X.shape
        h = torch.zeros(n, self.hidden)
        c = torch.zeros(n, self.hidden)
        preds = []
        last = X[t_obs]
        for t in range(T):
            pos = X[t] if t <= t_obs else last
            r = torch.relu(self.inp(pos))
            H = self.social_pooling(h, pos, masks[t])
            e = torch.relu(self.soc(H))
            h, c = self.cell_lstm(torch.cat([r, e], 1), (h, c))
            step = self.out(h)
            preds.append(step)
            if t >= t_obs:
                last = step
        return torch.stack(preds)


def scene(seed):
    g = torch.Generator().manual_seed(seed)
    T, n = 8, 4
    start = torch.tensor([[0.0, 0.0], [0.4, 0.1], [-0.3, 0.3], [0.2, -0.4]])
    vel = 0.05 * torch.randn(n, 2, generator=g)
    X = start[None] + torch.arange(T).float()[:, None, None] * vel[None]
    return X, torch.ones(T, n)


X, masks = scene(0)
t_obs, A, B = 4, 0, 1

lstm_grads = {}
for pool_grad in (False, True):
    torch.manual_seed(0)
    model = SocialLSTM(pool_grad=pool_grad)
    Xg = X.clone().requires_grad_(True)
    out = model(Xg, masks, t_obs)
    loss_A = out[-1, A].pow(2).sum()
    gX, gW = torch.autograd.grad(loss_A, [Xg, model.cell_lstm.weight_hh])
    lstm_grads[pool_grad] = gW
    # the neighbour really influences A's forward value
    X2 = X.clone()
    X2[:t_obs + 1, B] += 0.15
    with torch.no_grad():
        moved = model(X2, masks, t_obs)[-1, A]
    assert not torch.allclose(moved, out[-1, A].detach())
    if pool_grad:
        assert gX[:, B].abs().sum() > 0
    else:
        assert gX[:, B].abs().sum() == 0, "no gradient reaches the neighbour"

# the recurrent weights miss the whole neighbour-to-A contribution
diff = (lstm_grads[True] - lstm_grads[False]).abs().max().item()
assert diff > 1e-6, diff
print(f"max change of dLoss_A/dW_hh once pooling keeps its record: {diff:.2e}")
