#!/usr/bin/env bash
# Recreate the 8 repositories of the thirtieth wild triage (wild30-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; neural style transfer
# (naoto0804/pytorch-AdaIN: arbitrary style transfer with adaptive instance normalisation, VGG
# content/style losses), domain adaptation (corenel/pytorch-adda: adversarial discriminative domain
# adaptation, source pretraining then adversarial target-encoder training), metric learning
# (adambielski/siamese-triplet: siamese/triplet networks, contrastive and online triplet losses with
# hard-negative mining), pose estimation (microsoft/human-pose-estimation.pytorch: simple baselines,
# heatmap regression with joint-weighted MSE), symbolic music generation
# (djosix/Performance-RNN-PyTorch: event-based performance RNN with control conditioning, teacher
# forcing and beam search), energy-based models (wgrathwohl/JEM: joint energy-based classifier,
# SGLD sampling with a replay buffer), Bayesian neural nets (JavierAntoran/Bayesian-Neural-Networks:
# Bayes by Backprop, local reparametrisation, MC dropout, SGLD/pSGLD, SGHMC, KF-Laplace, bootstrap
# ensembles), and a larger library (pfnet/pfrl: deep RL library of agents, replay buffers and
# training loops))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild30.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild30}

REPOS=(
  "pytorch-AdaIN                 naoto0804+pytorch-AdaIN                    47950d0e6656a95a80a4b105c4c0f58d38ef785c"
  "pytorch-adda                  corenel+pytorch-adda                       96f2689dd418ef275fcd0b057e5dff89be5762c5"
  "siamese-triplet               adambielski+siamese-triplet                0c719f9e8f59fa386e8c59d10b2ddde9fac46276"
  "human-pose-estimation.pytorch microsoft+human-pose-estimation.pytorch    49f3f4458c9d5917c75c37a6db48c6a0d7cd89a1"
  "Performance-RNN-PyTorch       djosix+Performance-RNN-PyTorch             b47e6d3e5504c88394b0414e7ac175959369d3da"
  "JEM                           wgrathwohl+JEM                             3d01161547109b464eee87304f07b2dac8519d03"
  "Bayesian-Neural-Networks      JavierAntoran+Bayesian-Neural-Networks     49a02f188ba08d1069f33859f5caf0be6622f3cd"
  "pfrl                          pfnet+pfrl                                 c8cb3328899509be9ca68ca9a6cd2bcfce95725c"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
