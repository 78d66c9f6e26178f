"""
expect: GL001 38
dynamic: confirm
source: https://github.com/showlab/FQGAN/issues/1

A dual-branch image tokenizer (a pixel branch and a semantic branch, as in a
feature-quantised VQGAN) is trained with a reconstruction loss plus a semantic
alignment loss: a head on the semantic branch predicts the embedding of a frozen
CLIP-like teacher and an InfoNCE loss pulls the two together. The loss module's
forward is decorated with @torch.no_grad(), meant only for the frozen teacher,
so the InfoNCE value it returns is computed without a graph: the trainer adds it
to the reconstruction loss, backward runs without complaint, and the feature
prediction head (held by the optimizer, reached only by this term) never gets a
gradient. The explicit teacher.detach() next to it is deliberate and harmless.
The asserts show the semantic loss has no grad_fn, the head's .grad stays None
and its weights do not move, while the same trainer with the decorator removed
gives the head gradients and drives the alignment loss down.
"""
import torch
import torch.nn.functional as F

from clip_align import FrozenClipAligner
from tokenizer import DualBranchTokenizer


def train(steps, fixed, seed=0):
    torch.manual_seed(seed)
    model = DualBranchTokenizer()
    aligner = FrozenClipAligner()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    images = torch.rand(16, 3, 4, 4) * 2 - 1
    head_before = model.feat_pred_head.weight.detach().clone()
    sem_losses, head_grad_seen = [], False
    for _ in range(steps):
        recon, semantic_feat = model(images)
        rec_loss = F.mse_loss(recon, images)
        align = aligner.forward_fixed if fixed else aligner
        sem_loss = align(images, semantic_feat)
        loss = rec_loss + 0.5 * sem_loss
        opt.zero_grad()
        loss.backward()
        g = model.feat_pred_head.weight.grad
        head_grad_seen = head_grad_seen or (g is not None and g.abs().sum() > 0)
        opt.step()
        sem_losses.append(sem_loss.item())
    moved = not torch.equal(head_before, model.feat_pred_head.weight.detach())
    return sem_losses, head_grad_seen, moved, sem_loss


def main():
    torch.set_num_threads(1)
    bug_losses, bug_grad, bug_moved, bug_last = train(80, fixed=False)
    assert not bug_last.requires_grad and bug_last.grad_fn is None
    assert not bug_grad, "feature head should get no gradient through the no_grad loss"
    assert not bug_moved

    fix_losses, fix_grad, fix_moved, fix_last = train(80, fixed=True)
    assert fix_last.grad_fn is not None
    assert fix_grad and fix_moved
    assert fix_losses[-1] < 0.5 * fix_losses[0]
    assert fix_losses[-1] < bug_losses[-1] - 0.5
    print(f"alignment loss: decorated {bug_losses[0]:.3f}->{bug_losses[-1]:.3f}, "
          f"undecorated {fix_losses[0]:.3f}->{fix_losses[-1]:.3f}")


if __name__ == "__main__":
    main()
