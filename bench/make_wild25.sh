#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-fifth wild triage (wild25-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL (ikostrikov/
# pytorch-trpo: TRPO with conjugate gradient, Fisher-vector products, GAE, L-BFGS value fit),
# GAN (caogang/wgan-gp: WGAN-GP on toy data, MNIST, CIFAR-10 and language, gradient penalty),
# normalizing flow (chrischute/real-nvp: RealNVP, checkerboard/channel couplings, ResNet
# s/t networks), continual learning / distillation (hshustc/CVPR19_Incremental_Learning: LUCIR,
# cosine classifier, less-forget distillation, margin ranking loss), diffusion (cloneofsimo/
# minDiffusion: DDPM on MNIST/CIFAR-10), GNN (PetarV-/DGI: Deep Graph Infomax), speech/audio
# (mindslab-ai/voicefilter: speaker-conditioned source separation), and a larger library
# (skorch-dev/skorch: scikit-learn-compatible trainer, callbacks, probabilistic and LLM nets))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild25.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild25}

REPOS=(
  "pytorch-trpo                  ikostrikov+pytorch-trpo                 e200eb8a23b3c7941a0091efb9750dafa4b23cbb"
  "wgan-gp                       caogang+wgan-gp                         ae47a185ed2e938c39cf3eb2f06b32dc1b6a2064"
  "real-nvp                      chrischute+real-nvp                     df51ad570baf681e77df4d2265c0f1eb1b5b646c"
  "CVPR19_Incremental_Learning   hshustc+CVPR19_Incremental_Learning     e5a90aed7640f3b00e5b1a8dfb5376c1628bfe6a"
  "minDiffusion                  cloneofsimo+minDiffusion                00a3c8066d25a34d3d472ef6c87c7b6b238ea444"
  "DGI                           PetarV-+DGI                             61baf67d7052905c77bdeb28c22926f04e182362"
  "voicefilter                   mindslab-ai+voicefilter                 7db2930dacd94f33d44380bf07001fc7cab80e55"
  "skorch                        skorch-dev+skorch                       5db0ddc962117a2c3a646910ecd2e70253ff8e87"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
