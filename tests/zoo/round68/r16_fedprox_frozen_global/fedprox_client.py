import copy

import torch
import torch.nn.functional as F


class FedavgClient:
    def __init__(self, cid, model, inputs, targets, lr=0.1, local_epochs=2, batch_size=16):
        self.cid = cid
        self.model = model
        self.inputs, self.targets = inputs, targets
        self.lr, self.E, self.B = lr, local_epochs, batch_size

    def batches(self):
        for i in range(0, len(self.inputs), self.B):
            yield self.inputs[i:i + self.B], self.targets[i:i + self.B]

    def download(self, global_state):
        self.model.load_state_dict(global_state)

    def upload(self):
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}


class FedproxClient(FedavgClient):
    def __init__(self, mu=0.5, **kwargs):
        super().__init__(**kwargs)
        self.mu = mu
        self.trace = []

    def update(self):
        self.model.train()
        global_model = copy.deepcopy(self.model)
        for param in global_model.parameters():
            param.requires_grad = False

        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        losses = []
        for _ in range(self.E):
            for inputs, targets in self.batches():
                outputs = self.model(inputs)
                loss = F.cross_entropy(outputs, targets)

                prox = 0.
                for name, param in self.model.named_parameters():
                    prox += (param - global_model.get_parameter(name)).norm(2)
                loss += self.mu * (0.5 * prox)

                for param in self.model.parameters():
                    param.grad = None
                loss.backward()
                if len(self.trace) < 2:
                    self.trace.append(({n: p.detach().clone() for n, p in self.model.named_parameters()},
                                       {n: p.grad.clone() for n, p in self.model.named_parameters()},
                                       (inputs, targets)))
                optimizer.step()
                losses.append(loss.item())
        self.global_snapshot = global_model
        return sum(losses) / len(losses)
