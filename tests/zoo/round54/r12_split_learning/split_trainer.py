"""Split-learning client and server steps that exchange cut-layer activations and gradients."""
import torch
import torch.nn.functional as F


class SplitClient:
    def __init__(self, front, lr=0.1):
        self.front = front
        self.opt = torch.optim.SGD(front.parameters(), lr=lr)
        self.samples = None

    def extract(self, x):
        """Forward to the cut layer; only a plain copy of the activations leaves the client."""
        self.samples = x
        with torch.no_grad():
            return self.front(x)

    def apply_server_gradients(self, cut_grad):
        """Recompute the cut-layer output and push the server's gradient through it."""
        self.opt.zero_grad()
        outputs = self.front(self.samples)
        outputs.backward(cut_grad)
        self.opt.step()


class SplitServer:
    def __init__(self, back, lr=0.1):
        self.back = back
        self.opt = torch.optim.SGD(back.parameters(), lr=lr)

    def train_step(self, examples, labels):
        """Train the server half and return the gradient at the cut layer."""
        examples = examples.detach().requires_grad_(True)
        self.opt.zero_grad()
        loss = F.cross_entropy(self.back(examples), labels)
        loss.backward()
        self.opt.step()
        return loss.item(), examples.grad.clone().detach()
