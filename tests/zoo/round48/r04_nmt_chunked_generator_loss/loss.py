"""Memory-saving loss: run the vocabulary projection one target position at a time."""
import torch
from torch.autograd import Variable


def chunked_generator_loss(generator, criterion, dec_out, targets, normalize):
    """Backprop the generator column by column, then push the collected gradient into the decoder."""
    total = 0.0
    column_grads = []
    for t in range(dec_out.size(1)):
        column = Variable(dec_out[:, t].data, requires_grad=True)  # cut here on purpose
        logits = generator(column)
        loss = criterion(logits, targets[:, t]) / normalize
        total += loss.item()
        loss.backward()  # fills generator grads and column.grad; frees this column's vocab-sized graph
        column_grads.append(column.grad.data.clone())
    dec_out.backward(gradient=torch.stack(column_grads, dim=1))  # hand the gradient back to the decoder
    return total
