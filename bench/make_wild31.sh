#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-first wild triage (wild31-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; domain adaptation
# (jvanvugt/pytorch-domain-adaptation: ADDA, gradient-reversal DANN, WDGRL with a gradient penalty),
# neural architecture search (quark0/darts: DARTS, second-order unrolled architecture steps),
# continual learning (optimass/Maximally_Interfered_Retrieval: replay with virtual updates, ER/MIR,
# generative replay with a VAE), pruning (Eric-mingjie/network-slimming: L1 sparsity on BN scales,
# channel pruning, fine-tuning), hypernetworks (g1910/HyperNetworks: a hypernetwork generating a
# ResNet's convolution kernels), energy-based models (rosinality/igebm-pytorch: implicit generation
# with Langevin dynamics and a replay buffer), meta-learning (sungyubkim/GBML: gradient-based
# meta-learning with MAML, first-order MAML, iMAML, CAVIA, Reptile and a Neumann-series variant), and a larger library
# (Confusezius/Revisiting_Deep_Metric_Learning_PyTorch: deep metric learning criteria, batch miners,
# training loop))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild31.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild31}

REPOS=(
  "pytorch-domain-adaptation           jvanvugt+pytorch-domain-adaptation                  be63aadc18821d6b19c75df51f264ff08370a765"
  "darts                               quark0+darts                                        f276dd346a09ae3160f8e3aca5c7b193fda1da37"
  "Maximally_Interfered_Retrieval      optimass+Maximally_Interfered_Retrieval             35eda78bcdd35025b16b0b1039a926d34aad4851"
  "network-slimming                    Eric-mingjie+network-slimming                       b395dc07521cbc38f741d971a18fe3f6423c9ab1"
  "HyperNetworks                       g1910+HyperNetworks                                 5b75f2b959141ece82a47c3b0e6246b91fea4246"
  "igebm-pytorch                       rosinality+igebm-pytorch                            3c4f104af8781f232fd994759c60b7c19f13eba7"
  "GBML                                sungyubkim+GBML                                     1577e172dc5852267ad0b94cdb9c175a5ca7018e"
  "Revisiting_Deep_Metric_Learning_PyTorch Confusezius+Revisiting_Deep_Metric_Learning_PyTorch efddbf23ccbe267f055867b4e1c7c6693e2447c9"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
