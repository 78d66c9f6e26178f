"""
expect: GL001 nets.py:19
dynamic: confirm
source: none, invented

A cosine-similarity (NormFace-style) classifier for synthetic 12x12 stroke images. The model class
lives in nets.py; this script builds it and hands all its parameters to SGD. The helper
`_unit_weight` normalises the class weights but reads them through `self.classifier.weight.data`,
so the class-weight matrix is outside the graph: the convolutional features train, the classifier
weights never receive a gradient and stay at their random init. The asserts show
`classifier.weight.grad is None` and unchanged weights while the conv weights move; a subclass
that normalises `self.classifier.weight` directly trains the classifier weights as well.
"""
import torch
import torch.nn.functional as F

from nets import CosineClassifierNet

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES = 4


def strokes(n=64):
    y = torch.randint(0, N_CLASSES, (n,))
    img = 0.3 * torch.randn(n, 1, 12, 12)
    for i in range(n):
        c = int(y[i])
        if c == 0:
            img[i, 0, 5:7, :] += 1.0
        elif c == 1:
            img[i, 0, :, 5:7] += 1.0
        elif c == 2:
            img[i, 0].diagonal().add_(1.5)
        else:
            img[i, 0, 2:10, 2:10] += 0.6
    return img, y


class NormFaceNet(CosineClassifierNet):
    def _unit_weight(self):
        return F.normalize(self.classifier.weight, dim=1)


def fit(model, steps=150):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(steps):
        x, y = strokes()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x, y = strokes(400)
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    model = CosineClassifierNet(N_CLASSES)
    cls0 = model.classifier.weight.detach().clone()
    conv0 = model.features[0].weight.detach().clone()
    fit(model)
    assert model.classifier.weight.grad is None
    assert torch.equal(model.classifier.weight, cls0)
    assert (model.features[0].weight - conv0).abs().max().item() > 1e-3

    torch.manual_seed(0)
    model2 = NormFaceNet(N_CLASSES)
    cls0 = model2.classifier.weight.detach().clone()
    acc = fit(model2)
    assert (model2.classifier.weight - cls0).abs().max().item() > 1e-3
    assert acc > 0.9, acc
    print("k14_cosine_head_cnn: all checks passed")
