"""Black-box episodic wrapper: a policy outputs movement-primitive weights once per episode,
the wrapper turns them into a desired joint trajectory (ProMP-style basis functions)."""
import numpy as np
import torch


def get_numpy(x):
    return x.detach().cpu().numpy()


class ProMPGenerator:
    def __init__(self, n_basis, n_dof, n_steps=50):
        t = torch.linspace(0, 1, n_steps)
        centers = torch.linspace(0, 1, n_basis)
        phi = torch.exp(-((t[:, None] - centers[None]) ** 2) / (2 * 0.05 ** 2))
        self.basis = phi / phi.sum(dim=1, keepdim=True)      # (T, n_basis)
        self.n_basis, self.n_dof = n_basis, n_dof
        self.params = None

    def set_params(self, params):
        self.params = params.reshape(-1, self.n_basis, self.n_dof)

    def get_traj_pos(self):
        return torch.einsum("tb,nbd->ntd", self.basis, self.params)

    def get_traj_vel(self):
        pos = self.get_traj_pos()
        return torch.diff(pos, dim=1, prepend=pos[:, :1])


class BlackBoxWrapper:
    def __init__(self, n_basis=6, n_dof=2, low=-2.0, high=2.0):
        self.traj_gen = ProMPGenerator(n_basis, n_dof)
        self.low = np.full(n_basis * n_dof, low, dtype=np.float32)
        self.high = np.full(n_basis * n_dof, high, dtype=np.float32)

    def get_trajectory(self, action):
        clipped_params = np.clip(get_numpy(action), self.low, self.high)
        self.traj_gen.set_params(torch.as_tensor(clipped_params))
        position = self.traj_gen.get_traj_pos()
        velocity = self.traj_gen.get_traj_vel()
        return position, velocity

    def get_trajectory_differentiable(self, action):
        low, high = torch.from_numpy(self.low), torch.from_numpy(self.high)
        self.traj_gen.set_params(torch.clip(action, low, high))
        return self.traj_gen.get_traj_pos(), self.traj_gen.get_traj_vel()
