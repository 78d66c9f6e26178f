"""
expect: GL003 62
dynamic: confirm
source: https://github.com/open-mmlab/mmpretrain/issues/1730

A user added an FGSM evaluation to an mmpretrain ImageClassifier: the new predict path
builds the loss, calls `cost.backward()` to get the input gradient, perturbs the images
and classifies them. It failed when run from the test loop, because the runner's
test iteration is decorated with `@torch.no_grad()`. This program mirrors that: a
classifier whose fgsm_predict calls backward, driven by a TestLoop whose run_iter is
no_grad-decorated. The asserts show the attack raises inside the loop, and the same
attack run with grad mode enabled produces perturbed inputs and a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class ImageClassifier(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(8, n_cls)

    def extract_feat(self, x):
        return self.backbone(x)

    def loss(self, feats, labels):
        return F.cross_entropy(self.head(feats), labels)

    def fgsm_predict(self, inputs, labels, eps=0.03):
        inputs_adv = inputs.clone().requires_grad_(True)
        cost = -self.loss(self.extract_feat(inputs_adv), labels)
        self.zero_grad()
        cost.backward()
        x_adv = (inputs_adv - eps * inputs_adv.grad.sign()).clamp(-1, 1)
        with torch.no_grad():
            preds = self.head(self.extract_feat(x_adv)).argmax(1)
        return preds, x_adv.detach(), inputs_adv.grad

    def test_step(self, data):
        return self.fgsm_predict(data["inputs"], data["labels"])


class TestLoop:
    def __init__(self, model, dataloader):
        self.model = model
        self.dataloader = dataloader
        self.results = []

    def run(self):
        self.model.eval()
        for data in self.dataloader:
            self.run_iter(data)
        return self.results

    @torch.no_grad()
    def run_iter(self, data):
        preds, _, _ = self.model.test_step(data)
        self.results.append((preds == data["labels"]).float().mean().item())


torch.manual_seed(0)
model = ImageClassifier()
loader = [{"inputs": torch.rand(6, 3, 8, 8) * 2 - 1, "labels": torch.randint(0, 4, (6,))}
          for _ in range(2)]

try:
    TestLoop(model, loader).run()
    raise AssertionError("FGSM inside the no_grad test iteration should fail")
except RuntimeError as err:
    assert "does not require grad" in str(err), err

with torch.enable_grad():
    preds, x_adv, g = model.fgsm_predict(loader[0]["inputs"], loader[0]["labels"])
assert g is not None and g.abs().sum() > 0
assert not torch.equal(x_adv, loader[0]["inputs"])
print("p07 ok: attack that calls backward is run inside a no_grad test iteration")
