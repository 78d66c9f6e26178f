"""expect: GL004 38
dynamic: confirm
source: https://github.com/jeshraghian/snntorch/issues/250

A spiking CNN built from snnTorch Leaky neurons kept the membrane potential inside the
neuron objects across mini-batches because the hidden state was never reset in forward.
The second batch raised "Trying to backward through the graph a second time" and the
error text suggests retain_graph=True; with it, each backward walks back through every
earlier batch, so the graph (time and memory) grows with every iteration.
"""
import torch
import torch.nn as nn

from snn_layers import SpikingClassifier


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, net, lr=5e-3):
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()

    def train_batch(self, data, targets):
        spk_rec, mem_rec = self.net(data)
        loss = self.loss_fn(mem_rec.mean(0), targets)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(SpikingClassifier())
    sizes = []
    for _ in range(4):
        data, targets = torch.rand(8, 20), torch.rand(8, 4)
        loss = trainer.train_batch(data, targets)
        sizes.append(graph_size(loss))
    assert all(b > a for a, b in zip(sizes, sizes[1:]))
    print("autograd graph size per batch:", sizes)
