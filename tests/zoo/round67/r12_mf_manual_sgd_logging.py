"""
expect: none
dynamic: dismiss
source: https://github.com/nubol23/SCC5966-recommender-systems

Recommender systems, biased matrix factorization trained by hand. The notebook this is
modelled on fits user factors P, item factors Q and user/item biases with plain
tensors (requires_grad=True) and a hand-written SGD step: it logs the loss with
float(loss), tracks the best loss with loss.detach(), snapshots the best parameters with
P.detach().cpu() and applies the update `P -= lr * P.grad` inside torch.no_grad().
Every one of those lines looks like a value leaving autograd, but none of them feeds the
loss: float()/detach() are only for logging and checkpointing, and the in-place update
under no_grad is the ordinary way to step leaf parameters (the graph of the step that
produced the gradient was already consumed by backward). The trainer below keeps that
structure (and zeroes the gradients after each step). The asserts show that every
factor gets a non-zero gradient, that the logged float equals the loss, that the
stored snapshot is a detached copy, and that the reconstruction error drops by a wide
margin.
"""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def make_ratings(n_users=30, n_items=20, k=3):
    P_true = torch.randn(n_users, k)
    Q_true = torch.randn(n_items, k)
    ratings = 3.0 + 0.6 * (P_true @ Q_true.T)
    ratings = ratings.clamp(1.0, 5.0)
    observed = (torch.rand(n_users, n_items) < 0.7).float()
    return ratings, observed


class BiasedMF:
    def __init__(self, n_users, n_items, k, mu):
        self.P = (0.1 * torch.rand(n_users, k)).requires_grad_(True)
        self.Q = (0.1 * torch.rand(n_items, k)).requires_grad_(True)
        self.bu = torch.zeros(n_users, 1, requires_grad=True)
        self.bi = torch.zeros(n_items, 1, requires_grad=True)
        self.mu = mu
        self.ones_user = torch.ones(n_users, 1)
        self.ones_item = torch.ones(n_items, 1)

    def params(self):
        return [self.P, self.Q, self.bu, self.bi]

    def predict(self):
        Bu = torch.cat((self.bu, self.ones_user), dim=1)
        Bi = torch.cat((self.ones_item, self.bi), dim=1)
        return self.mu + Bu @ Bi.T + self.P @ self.Q.T


def masked_mse(pred, target, mask):
    return ((pred - target) ** 2 * mask).sum() / mask.sum()


def fit(model, ratings, observed, lr=3.0, epochs=600):
    history = []
    best_loss = float("inf")
    best_params = None
    first_grads = None
    for epoch in range(epochs):
        pred = model.predict()
        loss = masked_mse(pred, ratings, observed)
        history.append(float(loss))                # logging only
        if best_loss > loss.detach():              # bookkeeping only
            best_loss = float(loss.detach())
            best_params = [p.detach().cpu() for p in model.params()]
        loss.backward()
        if first_grads is None:
            first_grads = [p.grad.clone() for p in model.params()]
        with torch.no_grad():                      # hand-written SGD step
            for p in model.params():
                p -= lr * p.grad
                p.grad.zero_()
    return history, best_loss, best_params, first_grads


ratings, observed = make_ratings()
mu = (ratings * observed).sum() / observed.sum()
model = BiasedMF(ratings.shape[0], ratings.shape[1], k=3, mu=mu)

history, best_loss, best_params, first_grads = fit(model, ratings, observed)

for g in first_grads:
    assert g.abs().sum() > 0
assert abs(history[0] - masked_mse(mu + torch.zeros_like(ratings), ratings, observed).item()) < 0.2
assert best_params[0].grad_fn is None and not best_params[0].requires_grad
assert all(p.requires_grad and p.is_leaf for p in model.params())
print(f"loss first {history[0]:.4f} last {history[-1]:.4f} best {best_loss:.4f}")
assert history[-1] < 0.25 * history[0]
assert abs(best_loss - min(history)) < 1e-6
print("OK: float()/detach()/no_grad are bookkeeping and the SGD step; the factors train")
