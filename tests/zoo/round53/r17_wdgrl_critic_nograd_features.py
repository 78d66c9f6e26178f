"""
expect: none
dynamic: dismiss
source: https://github.com/jvanvugt/pytorch-domain-adaptation/issues/4

WDGRL domain adaptation (Wasserstein distance guided representation learning) as written in the repository:
for the critic steps the source/target features are computed under torch.no_grad() and taken with .data,
the gradient-penalty interpolates are stacked and switched on with .requires_grad_(), and requires_grad
flags of feature extractor and critic are toggled between the two phases. The issue claimed the feature
extractor is never updated because the optimizer is built on clf_model; but the feature extractor is a
submodule of clf_model, so the classifier step (features recomputed with history) trains it. The cut
features only feed the critic, which is trained on them on purpose, and requires_grad_() is applied to a
leaf input for the penalty, not to a loss. The asserts check that the critic learns, that the feature
extractor receives the Wasserstein and classification gradient and moves, and that the frozen critic
collects no gradient during the classifier step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import grad


def set_requires_grad(model, requires_grad=True):
    for param in model.parameters():
        param.requires_grad = requires_grad


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature_extractor = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 8))
        self.classifier = nn.Linear(8, 3)

    def forward(self, x):
        return self.classifier(self.feature_extractor(x))


def gradient_penalty(critic, h_s, h_t):
    alpha = torch.rand(h_s.size(0), 1)
    interpolates = h_s + alpha * (h_t - h_s)
    interpolates = torch.stack([interpolates, h_s, h_t]).requires_grad_()
    preds = critic(interpolates)
    gradients = grad(preds, interpolates, grad_outputs=torch.ones_like(preds),
                     retain_graph=True, create_graph=True)[0]
    return ((gradients.norm(2, dim=-1) - 1) ** 2).mean()


torch.manual_seed(0)
torch.set_num_threads(1)
clf_model = Net()
feature_extractor, discriminator = clf_model.feature_extractor, clf_model.classifier
critic = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
clf_optim = torch.optim.Adam(clf_model.parameters(), lr=1e-3)

source_x, source_y = torch.randn(32, 10), torch.randint(0, 3, (32,))
target_x = torch.randn(32, 10) + 1.5
fe_before = feature_extractor[0].weight.detach().clone()
critic_before = critic[0].weight.detach().clone()

for it in range(3):
    set_requires_grad(feature_extractor, requires_grad=False)
    set_requires_grad(critic, requires_grad=True)
    with torch.no_grad():
        h_s = feature_extractor(source_x).data
        h_t = feature_extractor(target_x).data
    for _ in range(2):
        gp = gradient_penalty(critic, h_s, h_t)
        wasserstein_distance = critic(h_s).mean() - critic(h_t).mean()
        critic_cost = -wasserstein_distance + 10.0 * gp
        critic_optim.zero_grad()
        critic_cost.backward()
        critic_optim.step()

    set_requires_grad(feature_extractor, requires_grad=True)
    set_requires_grad(critic, requires_grad=False)
    critic_optim.zero_grad(set_to_none=True)
    source_features = feature_extractor(source_x)
    target_features = feature_extractor(target_x)
    clf_loss = F.cross_entropy(discriminator(source_features), source_y)
    wasserstein_distance = critic(source_features).mean() - critic(target_features).mean()
    loss = clf_loss + 1.0 * wasserstein_distance
    clf_optim.zero_grad()
    loss.backward()
    assert feature_extractor[0].weight.grad is not None
    assert feature_extractor[0].weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in critic.parameters())
    clf_optim.step()

assert not torch.equal(critic[0].weight, critic_before), "critic should train on the detached features"
assert not torch.equal(feature_extractor[0].weight, fe_before), "feature extractor should train"
print("critic and feature extractor both trained; last W-distance %.4f" % wasserstein_distance.item())
