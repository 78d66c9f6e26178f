import torch.nn.functional as F


class IdentityLoss:
    """Cosine identity distance between swapped faces and source faces."""

    def __init__(self, recognizer):
        self.recognizer = recognizer

    def __call__(self, swapped, source):
        emb_fake = self.recognizer(swapped.detach())
        emb_real = self.recognizer(source)
        return (1 - F.cosine_similarity(emb_fake, emb_real, dim=1)).mean()
