import torch
import torch.nn.functional as F


def get_centroids(embeddings):
    """Mean d-vector of every speaker: (N, M, D) -> (N, D)."""
    centroids = []
    for speaker in embeddings:
        centroid = 0
        for utterance in speaker:
            centroid = centroid + utterance
        centroids.append(centroid / len(speaker))
    return torch.stack(centroids)


def get_centroid_excluding(embeddings, speaker_num, utterance_num):
    """Centroid of a speaker leaving one utterance out (eq. 8 of GE2E)."""
    centroid = 0
    for utterance_id, utterance in enumerate(embeddings[speaker_num]):
        if utterance_id == utterance_num:
            continue
        centroid = centroid + utterance
    return centroid / (len(embeddings[speaker_num]) - 1)


def get_cossim(embeddings, centroids):
    """Cosine similarity of every utterance to every centroid, (N, M, N)."""
    n_spk, n_utt = embeddings.size(0), embeddings.size(1)
    cossim = torch.zeros(n_spk, n_utt, centroids.size(0))
    for speaker_num, speaker in enumerate(embeddings):
        for utterance_num, utterance in enumerate(speaker):
            for centroid_num, centroid in enumerate(centroids):
                if speaker_num == centroid_num:
                    centroid = get_centroid_excluding(embeddings, speaker_num,
                                                      utterance_num)
                value = F.cosine_similarity(utterance, centroid, dim=0) + 1e-6
                cossim[speaker_num][utterance_num][centroid_num] = value
    return cossim


def calc_loss(sim_matrix):
    """Softmax GE2E loss from the scaled (N, M, N) similarity matrix."""
    per_embedding_loss = torch.zeros(sim_matrix.size(0), sim_matrix.size(1))
    for j in range(sim_matrix.size(0)):
        for i in range(sim_matrix.size(1)):
            denom = (torch.exp(sim_matrix[j][i]).sum() + 1e-6).log_()
            per_embedding_loss[j][i] = -(sim_matrix[j][i][j] - denom)
    return per_embedding_loss.sum(), per_embedding_loss
