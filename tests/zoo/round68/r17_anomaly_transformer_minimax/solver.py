import torch
import torch.nn as nn

from model import AnomalyTransformer


def my_kl_loss(p, q):
    res = p * (torch.log(p + 0.0001) - torch.log(q + 0.0001))
    return torch.mean(torch.sum(res, dim=-1), dim=1)


class Solver:
    def __init__(self, train_loader, win_size, enc_in, lr=1e-3, k=3, step_each_loss=True):
        self.train_loader = train_loader
        self.win_size = win_size
        self.k = k
        self.model = AnomalyTransformer(win_size, enc_in)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.criterion = nn.MSELoss()
        self.step_each_loss = step_each_loss

    def association_losses(self, series, prior):
        series_loss, prior_loss = 0.0, 0.0
        for u in range(len(prior)):
            norm_prior = prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1)
            series_loss += (torch.mean(my_kl_loss(series[u], norm_prior.detach()))
                            + torch.mean(my_kl_loss(norm_prior.detach(), series[u])))
            prior_loss += (torch.mean(my_kl_loss(norm_prior, series[u].detach()))
                           + torch.mean(my_kl_loss(series[u].detach(), norm_prior)))
        return series_loss / len(prior), prior_loss / len(prior)

    def train(self, num_epochs=1):
        history = []
        for epoch in range(num_epochs):
            self.model.train()
            for i, input_data in enumerate(self.train_loader):
                self.optimizer.zero_grad()
                output, series, prior, _ = self.model(input_data)
                series_loss, prior_loss = self.association_losses(series, prior)
                rec_loss = self.criterion(output, input_data)

                loss1 = rec_loss - self.k * series_loss
                loss2 = rec_loss + self.k * prior_loss
                history.append((rec_loss.item(), loss1.item(), loss2.item()))

                # Minimax strategy
                if self.step_each_loss:
                    loss1.backward(retain_graph=True)
                    self.optimizer.step()
                    loss2.backward()
                    self.optimizer.step()
                else:
                    loss1.backward(retain_graph=True)
                    loss2.backward()
                    self.optimizer.step()
        return history
