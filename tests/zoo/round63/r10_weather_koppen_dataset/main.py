"""
expect: GL001 dataset.py:33
dynamic: confirm
source: https://github.com/Yalt8826/WeatherForecast_STGCN_MAML/blob/d722b54e5c3c140147928d656a90fd13047520f1/dataset.py#L51

The same regional weather emulator conditions every grid node on its Koppen
climate zone through a learnable `KoppenEmbedding` (an nn.Embedding), and its
meta-training script passes the embedding's parameters to the optimizer and
saves its state dict with the model.  But the embedding is evaluated only once,
while the task's feature cube is prepared: its output is concatenated onto the
normalised ERA5 fields and the cube is wrapped in a Dataset whose
`__getitem__` returns `x.clone().detach()`.  That detach (which is also what
stops a second backward through the one-time embedding lookup from failing)
cuts the embedding out of every training step, so its weights never change.
The reduction keeps the preparation function and the Dataset in `dataset.py`
and trains a small per-node forecaster here.  The asserts show that the
embedding weight has no gradient and is unchanged after an epoch while the
forecaster moves, and that looking the embedding up inside the training step
(the fixed variant) trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import WeatherGraphDataset, prepare_model_input

torch.manual_seed(0)
torch.set_num_threads(1)

T, N, V, E, W = 24, 6, 3, 4, 4


class KoppenEmbedding(nn.Module):
    def __init__(self, embedding_dim=E):
        super().__init__()
        self.embedding = nn.Embedding(31, embedding_dim)

    def forward(self, codes):
        return self.embedding(codes)


class NodeForecaster(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_features, 16), nn.ReLU(), nn.Linear(16, V))

    def forward(self, x):
        return self.net(x)


def train_prebaked():
    torch.manual_seed(0)
    weather = torch.randn(T, N, V)
    koppen = KoppenEmbedding()
    features = prepare_model_input(weather, koppen_code=7, koppen_embed_layer=koppen)
    model = NodeForecaster(W * (V + E))
    loader = DataLoader(WeatherGraphDataset(features, window_size=W), batch_size=4, shuffle=True)
    opt = torch.optim.Adam(list(model.parameters()) + list(koppen.parameters()), lr=1e-2)
    emb_before = koppen.embedding.weight.detach().clone()
    model_before = [p.detach().clone() for p in model.parameters()]
    for x, y in loader:
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    emb_moved = not torch.equal(emb_before, koppen.embedding.weight)
    model_moved = any(not torch.equal(a, b) for a, b in zip(model_before, model.parameters()))
    return koppen.embedding.weight.grad, emb_moved, model_moved


def train_lookup_per_step():
    torch.manual_seed(0)
    weather = torch.randn(T, N, V)
    koppen = KoppenEmbedding()
    model = NodeForecaster(W * (V + E))
    loader = DataLoader(WeatherGraphDataset(weather, window_size=W), batch_size=4, shuffle=True)
    opt = torch.optim.Adam(list(model.parameters()) + list(koppen.parameters()), lr=1e-2)
    emb_before = koppen.embedding.weight.detach().clone()
    for x, y in loader:
        opt.zero_grad()
        b = x.shape[0]
        emb = koppen(torch.tensor([7]))  # [1, E], on the record for this step
        x = torch.cat([x.view(b, N, W, V), emb.expand(b, N, W, E)], dim=-1).view(b, N, -1)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return koppen.embedding.weight.grad, not torch.equal(emb_before, koppen.embedding.weight)


grad, emb_moved, model_moved = train_prebaked()
assert grad is None, "Koppen embedding should receive no gradient"
assert not emb_moved and model_moved

grad, emb_moved = train_lookup_per_step()
assert grad is not None and grad[7].abs().sum() > 0
assert emb_moved

print("r10 ok")
