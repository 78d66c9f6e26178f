"""
expect: GL005 main.py:54
dynamic: confirm
source: https://github.com/liruihui/PointAugment/issues/15

PointAugment trains an augmentor and a point-cloud classifier together. In
its training loop the augmented cloud comes out of the augmentor and is fed
through the classifier; the augmentor loss is backpropagated with
retain_graph=True, the augmentor's optimizer steps, and only then the
classifier loss -- built from the very same prediction on the augmented cloud
-- is backpropagated. That second backward walks back through the augmentor,
whose weights were saved for backward and have just been overwritten in place
by optimizer_a.step(). On the PyTorch of the time this silently produced
gradients computed from stale saved weights; on current PyTorch it stops with
"modified by an inplace operation", which is what the issue reports. The
asserts catch that error for the original ordering, and show that when the
classifier loss is computed on the detached augmented cloud (the classifier
should not push gradients into the augmentor anyway), both networks train.
"""
import torch
from nets import Augmentor, PointCls, aug_loss, cls_loss

torch.manual_seed(0)
torch.set_num_threads(1)

B, N, N_CLS = 8, 64, 4


def make_batch(gen):
    target = torch.randint(0, N_CLS, (B,), generator=gen)
    pts = torch.randn(B, 3, N, generator=gen)
    pts[:, 0] *= 1.0 + target.float().unsqueeze(1)  # class-dependent stretch
    return pts, target


def train(detach_for_classifier, steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    augmentor, classifier = Augmentor(), PointCls(N_CLS)
    optimizer_a = torch.optim.Adam(augmentor.parameters(), lr=1e-3)
    optimizer_c = torch.optim.Adam(classifier.parameters(), lr=1e-3)
    a0 = [p.detach().clone() for p in augmentor.parameters()]
    c0 = [p.detach().clone() for p in classifier.parameters()]
    for _ in range(steps):
        points, target = make_batch(gen)
        noise = 0.02 * torch.randn(B, 8, generator=gen)

        optimizer_a.zero_grad()
        aug_pc = augmentor(points, noise)
        pred_pc, pc_feat = classifier(points)
        pred_aug, aug_feat = classifier(aug_pc)
        a_loss = aug_loss(pred_pc, pred_aug, target)
        a_loss.backward(retain_graph=True)
        optimizer_a.step()

        optimizer_c.zero_grad()
        if detach_for_classifier:
            pred_aug, aug_feat = classifier(aug_pc.detach())
        c_loss = cls_loss(pred_pc, pred_aug, target, pc_feat, aug_feat)
        c_loss.backward(retain_graph=True)
        optimizer_c.step()
    moved_a = any(not torch.equal(p, q) for p, q in zip(a0, augmentor.parameters()))
    moved_c = any(not torch.equal(p, q) for p, q in zip(c0, classifier.parameters()))
    return moved_a, moved_c


def main():
    try:
        train(detach_for_classifier=False)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised, raised

    moved_a, moved_c = train(detach_for_classifier=True)
    assert moved_a and moved_c
    print("original order: classifier backward hits the stepped augmentor (caught)")
    print("fixed: augmentor and classifier both updated")


if __name__ == "__main__":
    main()
