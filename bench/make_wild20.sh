#!/usr/bin/env bash
# Recreate the 10 repositories of the twentieth wild triage (wild20-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; actor-critic RL
# (denisyarats/drq: SAC with augmentation, agent class), GAN + conditional VAE
# (junyanz/BicycleGAN: cVAE-GAN / cLR-GAN, model classes), self-supervised with forward hooks
# (lucidrains/pixel-level-contrastive-learning: PixPro, hooked feature extraction, EMA target),
# knowledge distillation with forward hooks (NVlabs/DeepInversion: BN-statistics hooks, ADI),
# meta-learning (aravindr93/imaml_dev: implicit MAML, conjugate-gradient hypergradients),
# diffusion/score + VAE (NVlabs/LSGM: score model in an NVAE latent space), NeRF/3D
# (lioryariv/volsdf: volume-rendered SDF, trainer class), GNN (Shen-Lab/GraphCL: graph
# contrastive learning), speech (yl4579/StarGANv2-VC: voice conversion GAN with F0/ASR models),
# and a larger library (mosaicml/composer: trainer, algorithms, callbacks)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild20.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild20}

REPOS=(
  "drq                            denisyarats+drq                          dd040f144ed8f696c7db35087cd80c87372edb64"
  "BicycleGAN                     junyanz+BicycleGAN                       40b9d52c27b9831f56c1c7c7a6ddde8bc9149067"
  "pixel-level-contrastive-learning lucidrains+pixel-level-contrastive-learning 0c60e93df73b0ec351f2104839c4d4748f3d38a2"
  "DeepInversion                  NVlabs+DeepInversion                     2413af1f97f6c73c4dcb47b6a44266aad458ff28"
  "imaml_dev                      aravindr93+imaml_dev                     6a2a6697d8b7be72e098d524852eacb448935fbf"
  "LSGM                           NVlabs+LSGM                              5eae2f385c014f2250c3130152b6be711f6a3a5a"
  "volsdf                         lioryariv+volsdf                         a974c883eb70af666d8b4374e771d76930c806f3"
  "GraphCL                        Shen-Lab+GraphCL                         b4d7501a2090f94ca0871beb4ec97bf071eaed0f"
  "StarGANv2-VC                   yl4579+StarGANv2-VC                      985df557acad47131587955bfe13ea9b99168f71"
  "composer                       mosaicml+composer                        6405188805a0054b4551ec49e4919c54c971d0e8"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
