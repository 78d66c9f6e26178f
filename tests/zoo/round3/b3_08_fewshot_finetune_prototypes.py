"""expect: none
dynamic: none
source: https://github.com/sicara/easy-few-shot-learning/issues/40

easyfsl's Finetune method (Chen et al., "A Closer Look at Few-shot Classification")
freezes the backbone and, at evaluation time, fine-tunes only the class prototypes: the
support features and prototypes are computed in the evaluation no-grad context, then the
prototypes are made a leaf with requires_grad_() and optimised inside enable_grad().
The issue was about using it for episodic training; as an evaluator it works as designed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Finetune(nn.Module):
    def __init__(self, backbone, fine_tuning_steps=10, fine_tuning_lr=1e-2):
        super().__init__()
        self.backbone = backbone
        self.backbone.requires_grad_(False)
        self.fine_tuning_steps = fine_tuning_steps
        self.fine_tuning_lr = fine_tuning_lr

    def process_support_set(self, support_images, support_labels):
        self.support_labels = support_labels
        self.support_features = self.backbone(support_images)
        n_way = int(support_labels.max()) + 1
        self.prototypes = torch.stack(
            [self.support_features[support_labels == c].mean(0) for c in range(n_way)]
        )

    def cosine_distance_to_prototypes(self, samples):
        return F.normalize(samples, dim=1) @ F.normalize(self.prototypes, dim=1).t()

    def forward(self, query_images):
        query_features = self.backbone(query_images)
        with torch.enable_grad():
            self.prototypes.requires_grad_()
            optimizer = torch.optim.Adam([self.prototypes], lr=self.fine_tuning_lr)
            for _ in range(self.fine_tuning_steps):
                support_logits = self.cosine_distance_to_prototypes(self.support_features)
                loss = F.cross_entropy(support_logits, self.support_labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        return self.cosine_distance_to_prototypes(query_features).detach()


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16))
    model = Finetune(backbone)
    support_images = torch.randn(15, 20)
    support_labels = torch.arange(5).repeat_interleave(3)
    query_images = torch.randn(10, 20)
    model.eval()
    with torch.no_grad():
        model.process_support_set(support_images, support_labels)
        initial = model.prototypes.clone()
        scores = model(query_images)
    assert model.prototypes.grad is not None
    assert not torch.allclose(initial, model.prototypes)
    assert all(p.grad is None for p in backbone.parameters())  # frozen on purpose
    assert scores.shape == (10, 5)
    print("prototypes fine-tuned at evaluation time; backbone frozen by design")
