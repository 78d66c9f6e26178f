"""One epoch of CycleGAN training (six losses, six optimizers)."""
import torch.optim as optim


def make_optimizers(model, lr=2e-3):
    mk = lambda m: optim.Adam(m.parameters(), lr=lr, betas=(0.5, 0.999))  # noqa: E731
    return [mk(model.G_A2B), mk(model.G_B2A), mk(model.D_A), mk(model.D_B),
            mk(model.D_A_all), mk(model.D_B_all)]


def train_epoch(model, optimizers, batches, gamma=1.0):
    (optimizer_GA2B, optimizer_GB2A, optimizer_DA, optimizer_DB,
     optimizer_DA_all, optimizer_DB_all) = optimizers
    history = []
    for real_a, real_b, real_mixed in batches:
        for opt in optimizers:
            opt.zero_grad()

        cycle_loss, g_A2B_loss, g_B2A_loss, d_A_loss, d_B_loss, \
            d_A_all_loss, d_B_all_loss = model(real_a, real_b, real_mixed)
        g_loss = g_A2B_loss + g_B2A_loss - cycle_loss
        D_loss = d_A_loss + d_B_loss + gamma * (d_A_all_loss + d_B_all_loss)

        g_A2B_loss.backward(retain_graph=True)
        g_B2A_loss.backward(retain_graph=True)

        d_A_loss.backward(retain_graph=True)
        d_B_loss.backward(retain_graph=True)

        d_A_all_loss.backward(retain_graph=True)
        d_B_all_loss.backward(retain_graph=True)

        optimizer_GA2B.step()
        optimizer_GB2A.step()
        optimizer_DA.step()
        optimizer_DB.step()
        optimizer_DA_all.step()
        optimizer_DB_all.step()

        history.append((cycle_loss.item(), g_loss.item(), D_loss.item()))
    return history
