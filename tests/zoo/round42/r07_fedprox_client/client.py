"""FedProx client: local SGD with the proximal gradient mu * (w - w_global) added to each parameter's grad."""
import torch
import torch.nn as nn


class FedProxClient:
    def __init__(self, model, loader, mu=0.5, lr=0.1, local_epochs=2):
        self.model, self.loader, self.mu, self.local_epochs = model, loader, mu, local_epochs
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def fit(self, global_state):
        self.model.load_state_dict(global_state)
        self.model.train()
        global_params = [w.clone().detach() for w in self.model.parameters()]
        for _ in range(self.local_epochs):
            for x, y in self.loader:
                logit = self.model(x)
                loss = self.criterion(logit, y)
                self.optimizer.zero_grad()
                loss.backward()
                for w, w_t in zip(self.model.parameters(), global_params):
                    if w.requires_grad:
                        w.grad.data += self.mu * (w.data - w_t.data)
                self.optimizer.step()
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}
