import random


def minibatches(pairs, batch_size, seed=0):
    rng = random.Random(seed)
    pairs = list(pairs)
    rng.shuffle(pairs)
    for i in range(0, len(pairs), batch_size):
        chunk = pairs[i:i + batch_size]
        yield [t for t, _ in chunk], [y for _, y in chunk]
