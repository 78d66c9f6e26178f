"""
expect: GL005 meta_head.py:17
dynamic: confirm
source: https://github.com/xxxxfang/LFODet/blob/73cb0229b2b69c22fdfbf0b52e948031fb4712a2/modelR/maml_lodet_hbb.py

Few-shot object detection with a MAML-trained 1x1 head on top of a frozen
neck. The inner step builds fast weights with create_graph=True, so they
stay differentiable functions of the meta-parameters. But the Learner
applies fast weights by writing them into its own parameters with
`p.data = w.data` and then convolving with the parameters. The .data
write is invisible to autograd: the query loss is differentiated at the
adapted point as if the parameters had always held those values (no path
back through the inner step), and the meta-initialization is silently
overwritten before the meta-optimizer ever steps, so each episode starts from
the last episode's adapted head. The asserts show the head weights change
during a forward pass with no optimizer step, and that the gradient the
meta-optimizer sees differs from the true MAML meta-gradient obtained by
running the query through the fast weights functionally, and that after
the meta-step the head is far from the MAML update of the initialization.
"""
import copy

import torch
import torch.nn.functional as F

from meta_head import Learner, compute_fast_weights, detection_loss

N_CLS, IN_CH, INNER_LR = 3, 16, 0.1


def make_episode(g, k_shot=4, q=4, hw=6):
    feats = torch.randn(k_shot + q, IN_CH, hw, hw, generator=g)  # frozen neck output
    target = torch.zeros(k_shot + q, 5 + N_CLS, hw, hw)
    target[:, :4] = torch.rand(k_shot + q, 4, hw, hw, generator=g)
    target[:, 4] = (torch.rand(k_shot + q, hw, hw, generator=g) > 0.8).float()
    target[:, 5 + torch.randint(0, N_CLS, (1,), generator=g)] = 1.0
    return feats[:k_shot], target[:k_shot], feats[k_shot:], target[k_shot:]


def reference_meta_grad(init_head, episode):
    spt_x, spt_y, qry_x, qry_y = episode
    head = copy.deepcopy(init_head)
    fast = compute_fast_weights(detection_loss(head(spt_x), spt_y), head.parameters(), INNER_LR)
    q_loss = detection_loss(F.conv2d(qry_x, fast[0], fast[1]), qry_y)
    return torch.autograd.grad(q_loss, list(head.parameters()))


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    head = Learner(IN_CH, 5 + N_CLS)
    meta_opt = torch.optim.SGD(head.parameters(), lr=0.01)
    episode = make_episode(g)
    spt_x, spt_y, qry_x, qry_y = episode

    init_state = copy.deepcopy(head)
    w_before = head.conv_learn.weight.detach().clone()

    meta_opt.zero_grad()
    support_loss = detection_loss(head(spt_x), spt_y)
    fast = compute_fast_weights(support_loss, head.parameters(), INNER_LR)
    query_loss = detection_loss(head(qry_x, fast), qry_y)
    query_loss.backward()

    # the forward pass alone moved the meta-parameters onto the adapted weights
    assert not torch.equal(head.conv_learn.weight.detach(), w_before)
    assert torch.equal(head.conv_learn.weight.detach(), fast[0].detach())

    ref_w, ref_b = reference_meta_grad(init_state, episode)
    got_w = head.conv_learn.weight.grad
    assert not torch.allclose(got_w, ref_w, atol=1e-6), "meta-gradient should be wrong"
    rel_err = ((got_w - ref_w).norm() / ref_w.norm()).item()
    assert rel_err > 1e-3, rel_err
    meta_opt.step()
    expected = w_before - 0.01 * ref_w  # one MAML meta-step from the initialization
    drift = (head.conv_learn.weight.detach() - expected).norm() / (0.01 * ref_w).norm()
    assert drift > 5.0, drift.item()  # the meta-step started from the adapted weights instead
    print(f"meta-gradient relative error {rel_err:.3f}; head off the MAML update by {drift.item():.1f}x the step")
