"""
expect: GL005 centre_loss.py:32
dynamic: confirm
source: none, invented

CentreLoss keeps one learnable centre per class plus its own SGD optimizer and
remembers the last loss it computed. update_centres() backpropagates that stored
loss and steps the centre optimizer. The training loop in main.py calls
update_centres() before total.backward(), although total contains the stored
centre loss; the step changes the centres in place while they are still saved
in the pending graph, so total.backward() fails with "modified by an inplace
operation".
"""
import torch


class CentreLoss:
    def __init__(self, num_classes, dim, lr=0.5):
        self.centres = torch.randn(num_classes, dim, requires_grad=True)
        self.optimizer = torch.optim.SGD([self.centres], lr=lr)
        self.last = None

    def __call__(self, features, labels):
        dots = features @ self.centres.t()
        sq = (features ** 2).sum(1, keepdim=True) - 2 * dots + (self.centres ** 2).sum(1)
        self.last = sq.gather(1, labels[:, None]).mean()
        return self.last

    def update_centres(self):
        self.optimizer.zero_grad()
        self.last.backward(retain_graph=True)
        self.optimizer.step()
