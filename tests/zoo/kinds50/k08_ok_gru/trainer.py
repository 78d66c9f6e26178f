def apply_update(opt, loss):
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
