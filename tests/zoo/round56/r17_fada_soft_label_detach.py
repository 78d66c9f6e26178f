"""
expect: none
dynamic: dismiss
source: https://github.com/JDAI-CV/FADA/issues/28

FADA (fine-grained adversarial domain adaptation for segmentation), in
train_adv.py (around line 186, which the issue links), builds soft class
labels for the discriminator as
`F.softmax(pred, dim=1).detach()` and then caps them in place with
`soft_label[soft_label > 0.9] = 0.9`. The issue asks why the target soft
label is detached in L_adv, since the target prediction should fool D. The
target's adversarial loss goes through the discriminator into the feature
extractor and is followed by `optimizer_fea.step()`. The discriminator is then
trained on `src_fea.detach()` and `tgt_fea.detach()` after `optimizer_D.zero_grad()`.
The detaches and the in-place edit look suspicious but are right. The soft
labels only say which class channels D should score; they are targets, and
D is fooled through `tgt_fea`, which is not detached. The in-place cap
bumps the version of the softmax output, which the softmax node saved, but no
loss ever backpropagates through that node. The detached features keep the
discriminator update from touching the extractor, and zeroing D's gradients
throws away what the adversarial backward left in D. The asserts show that the
loop runs without an inplace error, that the extractor gets a nonzero
adversarial gradient, that D is trained only by its own losses, and that
with the adversarial term D separates the two domains far less than after
source-only training, while the source task is still learned.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

C = 3  # classes


def soft_label_cross_entropy(pred, soft_label):
    return torch.mean(torch.sum(-soft_label * F.log_softmax(pred, dim=1), dim=1))


def make_models():
    torch.manual_seed(0)
    feature_extractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 8, 3, padding=1))
    classifier = nn.Conv2d(8, C, 1)
    model_D = nn.Sequential(nn.Conv2d(8, 16, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 2 * C, 1))
    return feature_extractor, classifier, model_D


src_x = torch.randn(8, 3, 6, 6)
src_y = (src_x[:, 0] > 0).long() + (src_x[:, 1] > 0.5).long()
tgt_x = 1.5 * torch.randn(8, 3, 6, 6) + 0.8   # shifted, rescaled domain


def train(adversarial, steps=150):
    feature_extractor, classifier, model_D = make_models()
    optimizer_fea = torch.optim.SGD(feature_extractor.parameters(), lr=0.05, momentum=0.9)
    optimizer_cls = torch.optim.SGD(classifier.parameters(), lr=0.05, momentum=0.9)
    optimizer_D = torch.optim.Adam(model_D.parameters(), lr=5e-3)
    info = {}
    for step in range(steps):
        optimizer_fea.zero_grad()
        optimizer_cls.zero_grad()
        optimizer_D.zero_grad()

        src_fea = feature_extractor(src_x)
        src_pred = classifier(src_fea) / 1.8
        F.cross_entropy(src_pred, src_y).backward()

        src_soft_label = F.softmax(src_pred, dim=1).detach()
        src_soft_label[src_soft_label > 0.9] = 0.9

        tgt_fea = feature_extractor(tgt_x)
        tgt_pred = classifier(tgt_fea) / 1.8
        tgt_soft_label = F.softmax(tgt_pred, dim=1).detach()
        tgt_soft_label[tgt_soft_label > 0.9] = 0.9

        if adversarial:
            before = [p.grad.clone() for p in feature_extractor.parameters()]
            tgt_D_pred = model_D(tgt_fea)
            loss_adv_tgt = 0.1 * soft_label_cross_entropy(
                tgt_D_pred, torch.cat((tgt_soft_label, torch.zeros_like(tgt_soft_label)), dim=1))
            loss_adv_tgt.backward()
            if step == 0:
                info["adv_grad"] = sum((p.grad - b).abs().sum().item()
                                       for p, b in zip(feature_extractor.parameters(), before))
                info["label_version"] = src_soft_label._version
        optimizer_fea.step()
        optimizer_cls.step()

        if step == 0 and adversarial:
            info["D_had_adv_grad"] = all(p.grad is not None for p in model_D.parameters())
            fea_grads = [p.grad.clone() for p in feature_extractor.parameters()]
        optimizer_D.zero_grad()
        if step == 0:
            info["D_cleared"] = all(p.grad is None for p in model_D.parameters())
        src_D_pred = model_D(src_fea.detach())
        loss_D_src = 0.5 * soft_label_cross_entropy(
            src_D_pred, torch.cat((src_soft_label, torch.zeros_like(src_soft_label)), dim=1))
        loss_D_src.backward()
        tgt_D_pred = model_D(tgt_fea.detach())
        loss_D_tgt = 0.5 * soft_label_cross_entropy(
            tgt_D_pred, torch.cat((torch.zeros_like(tgt_soft_label), tgt_soft_label), dim=1))
        loss_D_tgt.backward()
        if step == 0 and adversarial:
            info["fea_untouched"] = all(torch.equal(p.grad, g) for p, g in
                                        zip(feature_extractor.parameters(), fea_grads))
        optimizer_D.step()
    with torch.no_grad():
        # how well D tells the domains apart (source mass on the first C outputs)
        p_src_on_src = F.softmax(model_D(feature_extractor(src_x)), 1)[:, :C].sum(1).mean()
        p_src_on_tgt = F.softmax(model_D(feature_extractor(tgt_x)), 1)[:, :C].sum(1).mean()
        info["seg_loss"] = F.cross_entropy(classifier(feature_extractor(src_x)), src_y).item()
    return info, (p_src_on_src - p_src_on_tgt).item()


info_adv, gap_adv = train(adversarial=True)
info_src, gap_src = train(adversarial=False)

assert info_adv["label_version"] > 0                 # the in-place cap really happened
assert info_adv["adv_grad"] > 0                      # extractor gets the adversarial gradient
assert info_adv["D_had_adv_grad"] and info_adv["D_cleared"]  # adversarial grads in D discarded
assert info_adv["fea_untouched"]                     # D losses do not reach the extractor
assert gap_adv < 0.5 * gap_src, (gap_adv, gap_src)   # D separates the domains less
assert info_adv["seg_loss"] < 0.1                     # source segmentation still learned
print("adversarial training ran cleanly; D domain separation %.3f (adv) vs %.3f (source only)"
      % (gap_adv, gap_src))
