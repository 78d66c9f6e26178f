"""Rotation utilities of the mesh-recovery head: axis-angle -> matrix -> quaternion."""
import torch


def axis_angle_to_matrix(rotvec):
    """Rodrigues formula, batched: (N, 3) rotation vectors -> (N, 3, 3) matrices."""
    angle = rotvec.norm(dim=1, keepdim=True).clamp_min(1e-8)
    axis = rotvec / angle
    ax, ay, az = axis[:, 0], axis[:, 1], axis[:, 2]
    zero = torch.zeros_like(ax)
    skew = torch.stack([zero, -az, ay, az, zero, -ax, -ay, ax, zero], dim=1).view(-1, 3, 3)
    eye = torch.eye(3).expand(rotvec.shape[0], 3, 3)
    sin = torch.sin(angle).view(-1, 1, 1)
    cos = torch.cos(angle).view(-1, 1, 1)
    return eye + sin * skew + (1.0 - cos) * torch.bmm(skew, skew)


def _quat_components(m):
    """(w, x, y, z) of one 3x3 rotation matrix, choosing the numerically safe branch."""
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    if tr > -1.0:
        s = 2.0 * torch.sqrt(1.0 + tr)
        return s / 4.0, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s
    k = int(torch.argmax(torch.diagonal(m)))
    s = 2.0 * torch.sqrt(1.0 - tr + 2.0 * m[k, k])
    if k == 0:
        return (m[2, 1] - m[1, 2]) / s, s / 4.0, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s
    if k == 1:
        return (m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, s / 4.0, (m[1, 2] + m[2, 1]) / s
    return (m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4.0


def rotmat_to_quat(rotmats):
    """(N, 3, 3) -> (N, 4), one matrix at a time."""
    rows = []
    for m in rotmats:
        w, x, y, z = _quat_components(m)
        rows.append(torch.tensor([w, x, y, z]).unsqueeze(0))
    return torch.cat(rows, dim=0)


def rotmat_to_quat_stacked(rotmats):
    """Same conversion, keeping the four components in the autograd record."""
    rows = []
    for m in rotmats:
        rows.append(torch.stack(_quat_components(m)).unsqueeze(0))
    return torch.cat(rows, dim=0)
