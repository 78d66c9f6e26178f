#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-eighth wild triage (wild28-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; neural ODEs
# (EmilienDupont/augmented-neural-odes: ODE-Nets and augmented ODE-Nets via torchdiffeq, NFE counting),
# image captioning (sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning: show-attend-and-tell with doubly
# stochastic attention, beam search), federated learning (shaoxiongji/federated-learning: FedAvg over
# IID/non-IID client splits), voice conversion (auspicious3000/autovc: AutoVC bottleneck autoencoder with
# speaker embeddings), few-shot segmentation (kaixin96/PANet: prototype alignment network),
# optical flow (princeton-vl/RAFT: recurrent all-pairs field transforms, correlation pyramid, sequence
# loss), imitation learning (HumanCompatibleAI/imitation: BC, DAgger, GAIL, AIRL, reward learning
# from preferences), and a larger library (thuml/Time-Series-Library: time-series model zoo with
# forecasting, imputation, classification and anomaly-detection experiments))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild28.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild28}

REPOS=(
  "augmented-neural-odes                EmilienDupont+augmented-neural-odes              88d9865fa863069fa65e538ee11eebea934dbbe4"
  "a-PyTorch-Tutorial-to-Image-Captioning sgrvinod+a-PyTorch-Tutorial-to-Image-Captioning cc9c7e2f4017938d414178d3781fed8dbe442852"
  "federated-learning                   shaoxiongji+federated-learning                   5a9da1acd210aef030ff3841665c6d0cc0c8be23"
  "autovc                               auspicious3000+autovc                            c1827a60e83e6d26030b8953843b2f7cf2bd36db"
  "PANet                                kaixin96+PANet                                   1695bf37c2f7585323e09cfcfb3bef8d4fff1b86"
  "RAFT                                 princeton-vl+RAFT                                2888e15a51fa41140771d3f498ed8023cff098d1"
  "imitation                            HumanCompatibleAI+imitation                      e5ef18806c449ca47153b494a02471c5e2ae3a14"
  "Time-Series-Library                  thuml+Time-Series-Library                        4e938a1767106324dd753b2a44832bf870a0252e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
