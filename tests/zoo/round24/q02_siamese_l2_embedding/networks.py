import torch.nn as nn


class EmbeddingNet(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.convnet = nn.Sequential(nn.Conv2d(1, 8, 3), nn.PReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(8, 16, 3), nn.PReLU(), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Linear(16 * 2 * 2, 32), nn.PReLU(), nn.Linear(32, dim))

    def forward(self, x):
        out = self.convnet(x)
        out = out.view(out.size(0), -1)
        return self.fc(out)


class EmbeddingNetL2(EmbeddingNet):
    """Same trunk, embeddings projected onto the unit sphere."""

    def forward(self, x):
        output = super().forward(x)
        output /= output.pow(2).sum(1, keepdim=True).sqrt()
        return output


class EmbeddingNetL2Fixed(EmbeddingNet):
    def forward(self, x):
        output = super().forward(x)
        return output / output.pow(2).sum(1, keepdim=True).sqrt()


class TripletNet(nn.Module):
    def __init__(self, embedding_net):
        super().__init__()
        self.embedding_net = embedding_net

    def forward(self, a, p, n):
        return self.embedding_net(a), self.embedding_net(p), self.embedding_net(n)
