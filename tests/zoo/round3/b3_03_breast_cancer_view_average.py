"""expect: GL002 47
dynamic: confirm
source: https://github.com/nyukat/breast_cancer_classifier/issues/56

The NYU breast-cancer classifier averages per-view probabilities with pandas/numpy in
run_model(), which works only after the outputs are detached to NumPy.  A user building a
training loop on it rebuilt the averaged predictions with
torch.tensor(predictions, requires_grad=True) and called backward; the maintainers pointed
out this cannot back-propagate into the model, whose weights never change.
"""
import numpy as np
import torch
import torch.nn as nn

VIEWS = ("L-CC", "R-CC", "L-MLO", "R-MLO")


class SplitBreastModel(nn.Module):
    def __init__(self, in_dim=20):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU())
        self.heads = nn.ModuleDict({v.replace("-", "_"): nn.Linear(16, 2 * 2) for v in VIEWS})

    def forward(self, x_dict):
        out = {}
        for view in VIEWS:
            h = self.trunk(x_dict[view])
            out[view] = torch.log_softmax(self.heads[view.replace("-", "_")](h).view(-1, 2, 2), dim=-1)
        return out


def compute_batch_predictions(y_hat, mode="view_split"):
    # benign / malignant probability for each view, as NumPy
    return {view: np.exp(y_hat[view].cpu().detach().numpy())[:, :, 1] for view in VIEWS}


def run_model(model, x_dict):
    output = model(x_dict)
    batch_predictions = compute_batch_predictions(output)
    stacked = np.stack([batch_predictions[v] for v in VIEWS])   # views x batch x labels
    return stacked.mean(axis=0)


def training_step(model, optimizer, loss, x_dict, birads_labels):
    predictions = run_model(model, x_dict)
    gt = torch.tensor(birads_labels, dtype=torch.float, requires_grad=True)
    predictions = torch.tensor(predictions, dtype=torch.float, requires_grad=True)
    l = loss(predictions, gt)
    optimizer.zero_grad()
    l.backward()
    optimizer.step()
    return l.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SplitBreastModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x_dict = {v: torch.randn(6, 20) for v in VIEWS}
    labels = np.random.RandomState(0).randint(0, 2, size=(6, 2)).astype(np.float32)
    training_step(model, optimizer, nn.BCELoss(), x_dict, labels)
    assert all(p.grad is None for p in model.parameters())
    print("no gradient reached the classifier")
