"""DeepFool: minimal perturbation to the nearest linearised decision boundary, one class gradient at a time."""
import torch


def count_nodes(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def deepfool(image, net, num_classes=4, overshoot=0.02, max_iter=50, stats=None):
    with torch.no_grad():
        order = net(image[None]).flatten().argsort(descending=True)[:num_classes]
    label = order[0].item()

    r_tot = torch.zeros_like(image)
    x = image.clone()[None].requires_grad_(True)
    fs = net(x)
    k_i, loop_i = label, 0
    while k_i == label and loop_i < max_iter:
        if stats is not None:
            stats.append(count_nodes(fs.grad_fn))
        pert, w = float("inf"), None
        fs[0, order[0]].backward(retain_graph=True)
        grad_orig = x.grad.clone()
        for k in range(1, num_classes):
            x.grad.zero_()
            fs[0, order[k]].backward(retain_graph=True)
            w_k = x.grad - grad_orig
            f_k = (fs[0, order[k]] - fs[0, order[0]]).item()
            pert_k = abs(f_k) / w_k.norm().item()
            if pert_k < pert:
                pert, w = pert_k, w_k.clone()
        r_i = (pert + 1e-4) * w[0] / w.norm()
        r_tot = r_tot + r_i
        x = (image + (1 + overshoot) * r_tot)[None].requires_grad_(True)
        fs = net(x)
        k_i = fs.argmax(dim=1).item()
        loop_i += 1
    return (1 + overshoot) * r_tot, loop_i, label, k_i
