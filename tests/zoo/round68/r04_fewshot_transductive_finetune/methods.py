import torch
from torch import Tensor, nn


class FewShotClassifier(nn.Module):
    def __init__(self, backbone: nn.Module):
        super().__init__()
        self.backbone = backbone
        self.prototypes = torch.tensor(())
        self.support_features = torch.tensor(())
        self.support_labels = torch.tensor(())

    def compute_features(self, images: Tensor) -> Tensor:
        return self.backbone(images)

    def process_support_set(self, support_images: Tensor, support_labels: Tensor):
        self.support_labels = support_labels
        self.support_features = self.compute_features(support_images)
        n_way = int(support_labels.max()) + 1
        self.prototypes = torch.stack(
            [self.support_features[support_labels == k].mean(0) for k in range(n_way)]
        )

    def l2_distance_to_prototypes(self, features: Tensor) -> Tensor:
        return -torch.cdist(features, self.prototypes)


class PrototypicalNetworks(FewShotClassifier):
    def forward(self, query_images: Tensor) -> Tensor:
        return self.l2_distance_to_prototypes(self.compute_features(query_images))


def entropy(logits: Tensor) -> Tensor:
    probs = logits.softmax(-1)
    return (-(probs * (probs + 1e-12).log()).sum(-1)).mean()


class TransductiveFinetuning(FewShotClassifier):
    """Fine-tunes the prototypes on support cross-entropy + query entropy, then classifies."""

    def __init__(self, backbone, fine_tuning_steps=10, fine_tuning_lr=1e-3, temperature=1.0):
        super().__init__(backbone)
        # prototypes must be leaves to be fine-tuned, so the backbone is frozen
        self.backbone.requires_grad_(False)
        self.fine_tuning_steps = fine_tuning_steps
        self.fine_tuning_lr = fine_tuning_lr
        self.temperature = temperature

    def forward(self, query_images: Tensor) -> Tensor:
        query_features = self.compute_features(query_images)
        with torch.enable_grad():
            self.prototypes.requires_grad_()
            optimizer = torch.optim.Adam([self.prototypes], lr=self.fine_tuning_lr)
            for _ in range(self.fine_tuning_steps):
                support_ce = nn.functional.cross_entropy(
                    self.temperature * self.l2_distance_to_prototypes(self.support_features),
                    self.support_labels,
                )
                query_ent = entropy(self.temperature * self.l2_distance_to_prototypes(query_features))
                loss = support_ce + query_ent
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        scores = self.l2_distance_to_prototypes(query_features)
        return scores.detach()
