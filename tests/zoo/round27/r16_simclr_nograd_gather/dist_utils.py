import torch


def _world_chunks(t, world_size):
    # stand-in for torch.distributed.all_gather in a single process: every
    # "rank" contributes the same local batch
    return [t.clone() for _ in range(world_size)]


@torch.no_grad()
def concat_all_gather(t, world_size=1):
    """Gather embeddings from all ranks (copied from a MoCo codebase, where the
    gathered keys come from the momentum encoder and need no gradient)."""
    return torch.cat(_world_chunks(t, world_size), dim=0)


def concat_all_gather_with_grad(t, world_size=1):
    return torch.cat(_world_chunks(t, world_size), dim=0)
