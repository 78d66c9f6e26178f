"""Client side of a FedProx round: local SGD plus a proximal pull toward the server weights."""
import torch
import torch.nn.functional as F


class FedProxClient:
    def __init__(self, model, data, mu, lr=0.1):
        self.model = model
        self.x, self.y = data
        self.mu = mu
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.server_state = None

    def receive(self, server_state):
        self.model.load_state_dict(server_state)
        self.server_state = {k: v.clone() for k, v in server_state.items()}

    def proximal_term(self):
        pairs = zip(
            self.model.state_dict().items(),
            self.server_state.items(),
        )
        sq = [(p.float() - q.float()).norm() ** 2 for (_, p), (_, q) in pairs]
        return 0.5 * self.mu * sum(sq)

    def task_loss(self):
        return F.cross_entropy(self.model(self.x), self.y)

    def local_train(self, steps):
        for _ in range(steps):
            self.opt.zero_grad()
            loss = self.task_loss() + self.proximal_term()
            loss.backward()
            self.opt.step()
        return {k: v.clone() for k, v in self.model.state_dict().items()}
