"""History buffer of generated samples for discriminator training (CycleGAN style)."""
import random


class SamplePool:
    def __init__(self, max_length=50):
        self.maxsize = max_length
        self.images = []

    def __call__(self, fake):
        if self.maxsize <= 0:
            return fake
        if len(self.images) < self.maxsize:
            self.images.append(None)
            slot, old = len(self.images) - 1, fake
        elif random.random() < 0.5:
            return fake
        else:
            slot = random.randrange(self.maxsize)
            old = self.images[slot]
        self.images[slot] = fake
        return old
