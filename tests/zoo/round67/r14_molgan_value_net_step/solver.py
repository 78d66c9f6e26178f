"""Training step of the GAN + reward-network molecule generator."""
import numpy as np
import torch
import torch.nn.functional as F

from models import N_ATOM_TYPES


def postprocess(edges_logits, nodes_logits, temperature=1.0):
    edges_hat = F.softmax(edges_logits / temperature, dim=1)
    nodes_hat = F.softmax(nodes_logits / temperature, dim=-1)
    return edges_hat, nodes_hat


def reward(nodes_hat):
    """Non-differentiable property score of the decoded molecules (stands in for the
    RDKit metrics): fraction of carbon atoms (type 0) in the argmax decoding."""
    atoms = nodes_hat.detach().argmax(-1).cpu().numpy()
    score = (atoms == 0).mean(axis=1)
    return torch.from_numpy(score.astype(np.float32))


class Solver:
    def __init__(self, G, D, V, lambda_wgan=0.5, lr=1e-3):
        self.G, self.D, self.V = G, D, V
        self.lambda_wgan = lambda_wgan
        self.g_optimizer = torch.optim.Adam(G.parameters(), lr=lr)
        self.d_optimizer = torch.optim.Adam(D.parameters(), lr=lr)
        self.v_optimizer = torch.optim.Adam(V.parameters(), lr=lr)

    def train_step(self, real_edges, real_nodes, z, detach_for_value=False):
        # ---- discriminator ----
        edges_logits, nodes_logits = self.G(z)
        edges_hat, nodes_hat = postprocess(edges_logits, nodes_logits)
        d_loss = (-self.D(real_edges, real_nodes).mean()
                  + self.D(edges_hat.detach(), nodes_hat.detach()).mean())
        self.d_optimizer.zero_grad()
        d_loss.backward()
        self.d_optimizer.step()

        # ---- generator + reward network ----
        edges_logits, nodes_logits = self.G(z)
        edges_hat, nodes_hat = postprocess(edges_logits, nodes_logits)
        logits_fake = self.D(edges_hat, nodes_hat)
        value_logit_fake = self.V(edges_hat, nodes_hat)
        g_loss_fake = -logits_fake.mean()
        loss_rl = -value_logit_fake.mean()
        train_step_G = self.lambda_wgan * g_loss_fake + (1 - self.lambda_wgan) * loss_rl

        self.g_optimizer.zero_grad()
        train_step_G.backward(retain_graph=True)
        self.g_optimizer.step()

        # reward network regresses the property score of the same fake molecules
        reward_fake = reward(nodes_hat)
        if detach_for_value:
            value_logit_fake = self.V(edges_hat.detach(), nodes_hat.detach())
        loss_V = ((value_logit_fake - reward_fake) ** 2).mean()
        self.v_optimizer.zero_grad()
        loss_V.backward()
        self.v_optimizer.step()
        return d_loss.item(), train_step_G.item(), loss_V.item()
