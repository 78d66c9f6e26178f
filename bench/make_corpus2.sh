#!/usr/bin/env bash
# Recreate gradlint's second evaluation corpus (14 public PyTorch repositories that
# nobody on the project had linted when it was chosen) from fetched git snapshots:
# bare git dirs with no work tree, <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch`
# brings them. It is kept apart from the performance corpus (make_corpus.sh) so
# that findings measured here were not tuned against.
#
# Fetch each of these first (fetch prints where it put it):
#   github:vwxyzjn/cleanrl                       RL, single-file PPO/DQN/SAC/TD3
#   github:ikostrikov/pytorch-a2c-ppo-acktr-gail RL, A2C/PPO/ACKTR/GAIL
#   github:DLR-RM/stable-baselines3             RL library
#   github:eriklindernoren/PyTorch-GAN          GANs
#   github:facebookresearch/moco                self-supervised (MoCo); main is now
#                                               empty, so an older commit is pinned
#   github:lightly-ai/lightly                   self-supervised library
#   github:HobbitLong/RepDistiller              knowledge distillation
#   github:learnables/learn2learn               meta-learning (MAML etc.)
#   github:openai/improved-diffusion            diffusion
#   github:yenchenlin/nerf-pytorch              NeRF
#   github:snap-stanford/ogb                    GNNs (OGB examples)
#   github:OpenNMT/OpenNMT-py                   NLP, seq2seq
#   github:yunjey/pytorch-tutorial              tutorial collection
#   github:AntixK/PyTorch-VAE                   VAEs
#
# Usage: make_corpus2.sh MIRROR_ROOT [OUT_DIR]
#   MIRROR_ROOT  the folder holding <owner>+<name>/repo for each fetched repository
#   OUT_DIR      default /tmp/corpus2
#
# Only *.py regular files (no symlinks, no submodules) of the pinned commit are
# checked out: snapshots lack files >= 4 MiB and LFS content, so
# `git archive` fails on them; a temporary index + checkout-index avoids that
# and never writes into the mirror.
# The pinned commit of each repo is listed below; the script refuses to run if a
# mirror does not contain it (set ALLOW_OTHER_COMMIT=1 to use HEAD instead).
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_corpus2.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/corpus2}

# name  owner+repo  commit
REPOS=(
  "cleanrl                      vwxyzjn+cleanrl                        fe8d8a03c41a7ef5b523e2e354bd01c363e786bb"
  "pytorch-a2c-ppo-acktr-gail   ikostrikov+pytorch-a2c-ppo-acktr-gail  41332b78dfb50321c29bade65f9d244387f68a60"
  "stable-baselines3            DLR-RM+stable-baselines3               e05d2dbe6eda0acd0ef2e316e3e4065677add3eb"
  "PyTorch-GAN                  eriklindernoren+PyTorch-GAN            36d3c77e5ff20ebe0aeefd322326a134a279b93e"
  "moco                         facebookresearch+moco                  132aea9da9bb995a411c915c0420be3db62052f3"
  "lightly                      lightly-ai+lightly                     e8d317fc5a87f4387a85a35e689869039ec249ee"
  "RepDistiller                 HobbitLong+RepDistiller                b84f547c5db6a35318d4671d7d5c4de74c822403"
  "learn2learn                  learnables+learn2learn                 db5cee3795490071282bbdfa81179ef732349196"
  "improved-diffusion           openai+improved-diffusion              1bc7bbbdc414d83d4abf2ad8cc1446dc36c4e4d5"
  "nerf-pytorch                 yenchenlin+nerf-pytorch                63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd"
  "ogb                          snap-stanford+ogb                      61e9784ca76edeaa6e259ba0f836099608ff0586"
  "OpenNMT-py                   OpenNMT+OpenNMT-py                     97111d97551c24857076a4102eabdb468b35cff4"
  "pytorch-tutorial             yunjey+pytorch-tutorial                0500d3df5a2a8080ccfccbc00aca0eacc21818db"
  "PyTorch-VAE                  AntixK+PyTorch-VAE                     a6896b944c918dd7030e7d795a8c13e5c6345ec7"
)

SUFFIXES=".py"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
