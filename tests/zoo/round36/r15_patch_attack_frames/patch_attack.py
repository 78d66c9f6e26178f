import torch
import torch.nn.functional as F


class TrackerPatchAttack:
    """Adversarial patch over a clip of frames (expectation over random brightness masks)."""

    def __init__(self, model, frames, labels, patch_hw=(6, 6), lr=0.05):
        self.model = model
        self.labels = labels
        self._frames = frames.clone()
        self.patch = torch.full((1, frames.shape[1]) + tuple(patch_hw), 0.5, requires_grad=True)
        self.opt = torch.optim.Adam([self.patch], lr=lr)

    def _apply_patch(self, frames):
        h, w = self.patch.shape[-2:]
        H, W = frames.shape[-2:]
        full = F.pad(self.patch, (0, W - w, 0, H - h))
        mask = torch.zeros_like(frames[:1, :1])
        mask[..., :h, :w] = 1.0
        mask = mask * (0.8 + 0.4 * torch.rand(frames.shape[0], 1, 1, 1))
        return frames * (1 - mask) + full * mask

    def _train_step(self):
        self._frames = self._apply_patch(self._frames)
        loss = -F.cross_entropy(self.model(self._frames), self.labels)
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()
        with torch.no_grad():
            self.patch.clamp_(0.0, 1.0)
        return loss

    def generate(self, iters):
        return [self._train_step() for _ in range(iters)]
