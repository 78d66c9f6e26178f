"""FastDTW distance between a predicted and a reference spectrum, used as a training loss."""
from collections import defaultdict

import torch


def _difference(a, b):
    return torch.abs(a - b)


def _reduce_by_half(x):
    return torch.tensor([(x[i] + x[i + 1]) / 2 for i in range(0, len(x) - len(x) % 2, 2)])


def _expand_window(path, len_x, len_y, radius):
    cells = set(path)
    for i, j in path:
        for a in range(-radius, radius + 1):
            for b in range(-radius, radius + 1):
                cells.add((i + a, j + b))
    fine = set()
    for i, j in cells:
        fine.update({(2 * i, 2 * j), (2 * i, 2 * j + 1), (2 * i + 1, 2 * j), (2 * i + 1, 2 * j + 1)})
    return [(i, j) for i in range(len_x) for j in range(len_y) if (i, j) in fine]


def _dtw(x, y, window, dist):
    if window is None:
        window = [(i, j) for i in range(len(x)) for j in range(len(y))]
    D = defaultdict(lambda: (float("inf"),))
    D[0, 0] = (0, 0, 0)
    for i, j in ((i + 1, j + 1) for i, j in window):
        dt = dist(x[i - 1], y[j - 1])
        D[i, j] = min((D[i - 1, j][0] + dt, i - 1, j), (D[i, j - 1][0] + dt, i, j - 1),
                      (D[i - 1, j - 1][0] + dt, i - 1, j - 1), key=lambda a: a[0])
    path, i, j = [], len(x), len(y)
    while not (i == j == 0):
        path.append((i - 1, j - 1))
        i, j = D[i, j][1], D[i, j][2]
    path.reverse()
    return D[len(x), len(y)][0], path


def fastdtw(x, y, radius=1, dist=_difference):
    if len(x) < radius + 2 or len(y) < radius + 2:
        return _dtw(x, y, None, dist)
    _, coarse_path = fastdtw(_reduce_by_half(x), _reduce_by_half(y), radius, dist)
    window = _expand_window(coarse_path, len(x), len(y), radius)
    return _dtw(x, y, window, dist)


def fastdtw_loss(pred, target, radius=1):
    pred = torch.as_tensor(pred, dtype=torch.float)
    target = torch.as_tensor(target, dtype=torch.float)
    distance, _ = fastdtw(pred, target, radius=radius)
    loss = distance.clone().detach().requires_grad_(True)
    return loss
