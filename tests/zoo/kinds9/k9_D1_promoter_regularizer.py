"""expect: GL001 27
dynamic: confirm

A DNA promoter classifier adds a unit-norm penalty on its k-mer embeddings to the classification loss, but the penalty is added as `aux.detach().item()`, a plain Python number. The added constant shifts the loss value and shapes no gradient, so the regularizer has no effect on training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromoterNet(nn.Module):
    def __init__(self, n_kmers=64, dim=16):
        super().__init__()
        self.kmer = nn.EmbeddingBag(n_kmers, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, kmers):
        return self.out(self.kmer(kmers)).squeeze(-1)


def grads(model, kmers, labels, use_aux):
    model.zero_grad()
    main_loss = F.binary_cross_entropy_with_logits(model(kmers), labels)
    loss = main_loss
    if use_aux:
        aux = (model.kmer.weight.norm(dim=1) - 1).pow(2).mean()
        loss = main_loss + 0.5 * aux.detach().item()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()], loss.item(), main_loss.item()


def main():
    torch.manual_seed(0)
    model = PromoterNet()
    kmers = torch.randint(0, 64, (32, 20))
    labels = (kmers % 4 == 0).float().mean(dim=1).gt(0.25).float()

    with_aux, total, main_only = grads(model, kmers, labels, use_aux=True)
    without_aux, _, _ = grads(model, kmers, labels, use_aux=False)
    assert total > main_only + 1e-3, "the aux term does change the loss value"
    for a, b in zip(with_aux, without_aux):
        assert torch.equal(a, b), "aux term should not change any gradient"
    print("D1 ok: detached .item() penalty leaves every gradient unchanged")


if __name__ == "__main__":
    main()
