"""Minimal Lightning-style fit loop: the optimizer drives the closure that runs the training step."""


class Trainer:
    def __init__(self, max_epochs=1):
        self.max_epochs = max_epochs
        self.logged = []

    def fit(self, module, batches):
        optimizer = module.configure_optimizers()
        module.train()
        for _ in range(self.max_epochs):
            for batch in batches:
                loss = optimizer.step(closure=self._make_closure(module, optimizer, batch))
                self.logged.append(loss.item())
        return self.logged

    @staticmethod
    def _make_closure(module, optimizer, batch):
        def closure():
            optimizer.zero_grad()
            loss = module.training_step(batch)
            if not loss.requires_grad:
                # "element 0 of tensors does not require grad" when switching to c_adamw
                loss.requires_grad_(True)
            loss.backward()
            return loss

        return closure
