#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-fourth wild triage (wild34-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; reinforcement learning
# from scratch (BY571/Soft-Actor-Critic-and-Extensions: SAC, PER, D2RL, discrete SAC, by one author),
# GAN training scripts (Zeleni9/pytorch-wgan: DCGAN, WGAN with clipping, WGAN-GP), image-to-image GAN
# (mrzhu-cool/pix2pix-pytorch: a pix2pix re-implementation), graph neural networks for molecules
# (vgsatorras/egnn: E(n)-equivariant GNN on QM9, n-body, autoencoder), speech separation
# (kaituoxu/Conv-TasNet: Conv-TasNet with SI-SNR PIT loss), recommender/CTR models (rixwew/pytorch-fm:
# FM, FFM, DeepFM, xDeepFM, AFM, AutoInt, ...), anomaly detection (donggong1/memae-anomaly-detection:
# memory-augmented autoencoder), and a larger library (chemprop/chemprop: molecular property
# prediction with message-passing networks, Lightning-based))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild34.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild34}

REPOS=(
  "Soft-Actor-Critic-and-Extensions    BY571+Soft-Actor-Critic-and-Extensions              038fb53ecb4ab8ea44e7a63ad59a9950aa6ddd97"
  "pytorch-wgan                        Zeleni9+pytorch-wgan                                7f5b52d638746c8b2abdd65dc26319f1de3be8cf"
  "pix2pix-pytorch                     mrzhu-cool+pix2pix-pytorch                          85caf054bbd4e8c1112c124373770ed0f63201cd"
  "egnn                                vgsatorras+egnn                                     e9ca6c0c3e1d30a7598efbd66034121b4af8dccc"
  "Conv-TasNet                         kaituoxu+Conv-TasNet                                0d9d9dcd8037b396fd029000af58cda6b7663b11"
  "pytorch-fm                          rixwew+pytorch-fm                                   f74ad19771eda104e99874d19dc892e988ec53fa"
  "memae-anomaly-detection             donggong1+memae-anomaly-detection                   ceece7714fb241e82ef3f3785d3d1ed86c28113e"
  "chemprop                            chemprop+chemprop                                   9a0b47ad19ebf440c1557787e666d442728adaad"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
