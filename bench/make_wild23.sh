#!/usr/bin/env bash
# Recreate the 10 repositories of the twenty-third wild triage (wild23-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; offline RL
# (sfujim/BCQ: batch-constrained Q-learning, a VAE behaviour model, perturbation actor, twin
# critics), image translation (taesungp/swapping-autoencoder-pytorch: StyleGAN2-style structure/
# texture swapping auto-encoder, patch co-occurrence discriminator, R1 penalty), normalizing flow
# (rtqichen/residual-flows: invertible residual networks, Russian-roulette log-det estimator,
# Neumann-series gradient, spectral normalization), self-supervised (zhirongw/lemniscate.pytorch:
# non-parametric instance discrimination, memory bank, NCE), continual learning (joansj/hat: hard
# attention to the task, EWC, LwF, IMM, PathNet, progressive nets), diffusion (NVlabs/denoising-
# diffusion-gan: denoising diffusion GANs, R1 penalty, EMA), 3D (facebookresearch/DeepSDF: signed
# distance auto-decoder, learned latent codes, latent optimisation at reconstruction), GNN
# (RexYing/gnn-model-explainer: GNNExplainer, learned edge and feature masks on GCN models), speech/
# audio (facebookresearch/denoiser: real-time speech enhancement, Demucs, multi-resolution STFT
# loss), and a larger library (facebookresearch/fairseq: sequence modelling toolkit, trainer,
# criterions, models, optimizers)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild23.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild23}

REPOS=(
  "BCQ                           sfujim+BCQ                              4876f7e5afa9eb2981feec5daf67202514477518"
  "swapping-autoencoder-pytorch  taesungp+swapping-autoencoder-pytorch   6baa180f1184ee79a6b967f9d80ee0e02a979ac7"
  "residual-flows                rtqichen+residual-flows                 8170138c850a3574319491d97093bc860ce4922d"
  "lemniscate.pytorch            zhirongw+lemniscate.pytorch             f7cfe298357cb2b169cd59eb540aca24bed1f9b8"
  "hat                           joansj+hat                              6fd0b9d98e089bec1f9da6cc20550916ce196829"
  "denoising-diffusion-gan       NVlabs+denoising-diffusion-gan          6818ded6443e10ab69c7864745457ce391d4d883"
  "DeepSDF                       facebookresearch+DeepSDF                48c19b8d49ed5293da4edd7da8c3941444bc5cd7"
  "gnn-model-explainer           RexYing+gnn-model-explainer             bc984829f4f4829e93c760e9bbdc8e73f96e2cc1"
  "denoiser                      facebookresearch+denoiser               8afd7c166699bb3c8b2d95b6dd706f71e1075df0"
  "fairseq                       facebookresearch+fairseq                3d262bb25690e4eb2e7d3c1309b1e9c406ca4b99"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
