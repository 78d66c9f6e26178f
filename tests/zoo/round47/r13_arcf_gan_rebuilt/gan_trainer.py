"""Generator update of the rating/missing GAN: the per-batch losses are gathered as NumPy values."""
import numpy as np
import torch


def generator_step(rating_generator, missing_generator, rating_discriminator, missing_discriminator,
                   rating_g_optimizer, missing_g_optimizer, user_encoder, batches, noise_size):
    g_loss_sum = np.zeros(1, dtype=np.float32)
    for user_ids, missing_mask in batches:
        cond = user_encoder(user_ids).detach()
        noise = torch.randn(user_ids.shape[0], noise_size)
        fake_rating = rating_generator(noise, cond)
        fake_missing = missing_generator(noise, cond)
        fake_rating_with_missing = fake_rating * missing_mask
        rating_out = rating_discriminator(fake_rating_with_missing, cond)
        missing_out = missing_discriminator(fake_missing, cond)
        g_loss_sum = g_loss_sum + (np.log(1.0 - rating_out.detach().numpy()).mean()
                                   + np.log(1.0 - missing_out.detach().numpy()).mean())
    g_loss = torch.tensor(g_loss_sum / len(batches), requires_grad=True)
    g_loss = torch.mean(g_loss)
    rating_g_optimizer.zero_grad()
    missing_g_optimizer.zero_grad()
    g_loss.backward()
    rating_g_optimizer.step()
    missing_g_optimizer.step()
    return g_loss.item()
