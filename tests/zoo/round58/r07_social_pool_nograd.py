"""
expect: GL001 55
dynamic: confirm
source: https://github.com/fireblue204/social-LSTM/blob/e1c76b1495763748f03fcd2684ce673a5e52bf0e/smodel.py#L73

This Social-LSTM implementation for pedestrian trajectory forecasting builds, at every frame, an
occupancy grid of each pedestrian's neighbours and pools the neighbours' previous hidden states
into it (`get_socialPooling`). The whole pooling is wrapped in `with torch.no_grad():`, probably to
keep the Python loops cheap, but the pooled tensor is exactly what feeds the social embedding and
the LSTM at the next frame. Computing it without a record cuts every path from the loss back to
the previous hidden states: the interaction between pedestrians over time is never trained, and
the `prevEmbedding` layer that produces the initial hidden state is reachable only through the
pool, so it never receives a gradient. (As in the original, the LSTM cell is called without an
explicit state, so the pool is the only link between frames.) The asserts show that after
training `prev_emb.bias.grad` is None and its values are unchanged while the rest of the model
trains, and that computing the pool with the record (no `no_grad`) gives the layer a non-zero
gradient and moves it; the forecasting loss falls in the fixed run.
"""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SocialLSTM(nn.Module):
    def __init__(self, hidden=16, emb=16, grid_size=4, cell_size=0.5, pool_with_grad=False):
        super().__init__()
        self.hidden, self.grid_size, self.cell_size = hidden, grid_size, cell_size
        self.pool_with_grad = pool_with_grad
        self.input_emb = nn.Linear(2, emb)
        self.social_emb = nn.Linear(grid_size * grid_size * hidden, hidden)
        self.prev_emb = nn.Linear(hidden, hidden)
        self.cell = nn.LSTMCell(emb + hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def grid_mask(self, pos):
        """mask[i, j, g] = 1 if pedestrian j sits in grid cell g around pedestrian i."""
        n = pos.shape[0]
        half = self.grid_size * self.cell_size / 2
        rel = pos[None, :, :] - pos[:, None, :] + half  # (i, j, 2)
        cell = torch.floor(rel / self.cell_size).long()
        inside = ((cell >= 0) & (cell < self.grid_size)).all(-1) & ~torch.eye(n, dtype=torch.bool)
        idx = (cell[..., 0] + cell[..., 1] * self.grid_size).clamp(0, self.grid_size ** 2 - 1)
        mask = torch.zeros(n, n, self.grid_size ** 2)
        mask.scatter_(2, idx.unsqueeze(-1), inside.unsqueeze(-1).float())
        return mask

    def social_pool(self, mask, prev_h):
        if self.pool_with_grad:
            pooled = torch.einsum("ijg,jh->igh", mask, prev_h)
        else:
            with torch.no_grad():
                pooled = torch.einsum("ijg,jh->igh", mask, prev_h)
        return pooled.reshape(prev_h.shape[0], -1)

    def forward(self, obs):
        steps, n, _ = obs.shape
        prev_h = F.relu(self.prev_emb(torch.zeros(n, self.hidden)))
        preds = []
        for t in range(steps):
            pooled = self.social_pool(self.grid_mask(obs[t]), prev_h)
            e = F.relu(self.input_emb(obs[t]))
            a = F.relu(self.social_emb(pooled))
            h, _ = self.cell(torch.cat([e, a], dim=1))
            preds.append(self.out(h))
            prev_h = h
        return torch.stack(preds)


def make_scenes(count=6, steps=8, n=5):
    scenes = []
    for _ in range(count):
        start = (torch.rand(n, 2) - 0.5) * 1.6
        vel = 0.08 * torch.randn(n, 2)
        t = torch.arange(steps + 1).float().view(-1, 1, 1)
        scenes.append(start + vel * t + 0.01 * torch.randn(steps + 1, n, 2))
    return scenes


def train(pool_with_grad, scenes, init_state, epochs=40):
    model = SocialLSTM(pool_with_grad=pool_with_grad)
    model.load_state_dict(init_state)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    history = []
    for _ in range(epochs):
        total = 0.0
        for traj in scenes:
            pred = model(traj[:-1])
            loss = F.mse_loss(pred, traj[1:])
            opt.zero_grad()
            loss.backward()
            grad = model.prev_emb.bias.grad
            opt.step()
            total += loss.item()
        history.append(total / len(scenes))
    return model, grad, history


def main():
    scenes = make_scenes()
    init_state = {k: v.clone() for k, v in SocialLSTM().state_dict().items()}

    model, grad, hist = train(False, scenes, init_state)
    assert grad is None
    assert torch.equal(model.prev_emb.bias, init_state["prev_emb.bias"])
    assert not torch.equal(model.cell.weight_ih, init_state["cell.weight_ih"])  # the rest trains

    model, grad, hist_fixed = train(True, scenes, init_state)
    assert grad is not None and grad.abs().sum() > 0
    assert not torch.equal(model.prev_emb.bias, init_state["prev_emb.bias"])
    assert hist_fixed[-1] < 0.5 * hist_fixed[0], (hist_fixed[0], hist_fixed[-1])
    print(f"no_grad pool: prev_emb frozen; pooled with record: loss {hist_fixed[0]:.4f} -> {hist_fixed[-1]:.4f}")


if __name__ == "__main__":
    main()
