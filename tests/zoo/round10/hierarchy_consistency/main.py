"""
expect: GL002 hierarchy_loss.py:25
dynamic: confirm
source: https://github.com/Ugenteraan/Deep_Hierarchical_Classification/issues/6

In Deep_Hierarchical_Classification the dependence loss is built from argmax
predictions and `torch.FloatTensor(bool_tensor)` where the list comes from
`.item()` look-ups; issue #6 notes that this new tensor is not registered in
the computational graph, so "the way the parameters updated are the same
without any value of beta". Here the HierarchicalLoss class (hierarchy_loss.py)
measures how much of the fine head's probability falls inside the predicted
superclass, but collects it with `.item()` and rebuilds it with torch.tensor().
The asserts show the model gradient is bit-identical for beta=0 and beta=5,
while a graph-preserving version of the same consistency term (torch.stack)
does change the gradient: the dependence loss contributes no gradient.
"""
import torch
import torch.nn as nn

from hierarchy_loss import HierarchicalLoss

CHILDREN = {0: [0, 1, 2], 1: [3, 4], 2: [5, 6, 7]}


class TwoLevelNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.coarse_head = nn.Linear(32, 3)
        self.fine_head = nn.Linear(32, 8)

    def forward(self, x):
        h = self.trunk(x)
        return self.coarse_head(h), self.fine_head(h)


def flat_grad(model):
    return torch.cat([p.grad.flatten() for p in model.parameters()])


def main():
    torch.manual_seed(0)
    model = TwoLevelNet()
    x = torch.randn(16, 10)
    fine_y = torch.randint(0, 8, (16,))
    coarse_y = torch.tensor([next(k for k, v in CHILDREN.items() if int(f) in v) for f in fine_y])

    grads = {}
    for beta in (0.0, 5.0):
        model.zero_grad(set_to_none=True)
        criterion = HierarchicalLoss(CHILDREN, beta=beta)
        coarse, fine = model(x)
        dep = criterion.dependence_loss(coarse, fine)
        criterion(coarse, fine, coarse_y, fine_y).backward()
        grads[beta] = flat_grad(model)
        if beta > 0:
            assert dep.item() > 0.0
    assert torch.equal(grads[0.0], grads[5.0])

    # a graph-preserving version of the same consistency term does move the gradient
    model.zero_grad(set_to_none=True)
    coarse, fine = model(x)
    pred = coarse.argmax(1)
    prob = fine.softmax(1)
    mass = torch.stack([prob[i, CHILDREN[int(pred[i])]].sum() for i in range(16)])
    (5.0 * (1.0 - mass).mean()).backward()
    assert model.fine_head.weight.grad.abs().sum() > 0
    assert model.trunk[0].weight.grad.abs().sum() > 0
    print("dependence loss has no effect on the gradient: confirmed")


if __name__ == "__main__":
    main()
